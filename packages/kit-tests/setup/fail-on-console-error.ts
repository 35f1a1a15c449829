import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ConsoleErrorWatch } from '../helpers/console-errors';

/**
 * A test fails when it prints a console.error it did not declare: an error nobody asserted on is a bug nobody read.
 * What a file's beforeAll/afterAll print fails the file. This setup's hooks are registered before the file's, and
 * vitest runs after-hooks in reverse order, so the checks below run after the file's own teardown and see its output.
 * Declare an expected error with `expectConsoleError(/pattern/, 'reason')` from packages/kit-tests/helpers/console-errors.ts.
 */
let fileWatch: ConsoleErrorWatch | undefined;
let testWatch: ConsoleErrorWatch | undefined;

const report = (where: string, printed: string[]) =>
  new Error(
    `unexpected console.error ${where} (declare an expected one with expectConsoleError from packages/kit-tests/helpers/console-errors.ts):\n${printed.join('\n')}`,
  );

beforeAll(() => {
  fileWatch = new ConsoleErrorWatch().start();
});

beforeEach(() => {
  testWatch = new ConsoleErrorWatch().start();
});

afterEach(() => {
  const printed = testWatch?.stop() ?? [];
  testWatch = undefined;
  if (printed.length > 0) throw report('in this test', printed);
});

afterAll(() => {
  const printed = fileWatch?.stop() ?? [];
  fileWatch = undefined;
  if (printed.length > 0) throw report("in this file's beforeAll/afterAll or between its tests", printed);
});
