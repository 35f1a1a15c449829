import { afterEach, beforeEach } from 'vitest';
import { ConsoleErrorWatch } from '../helpers/console-errors';

/** A test fails when it prints a console.error it did not declare: an error nobody asserted on is a bug nobody read. */
let watch: ConsoleErrorWatch | undefined;

beforeEach(() => {
  watch = new ConsoleErrorWatch().start();
});

afterEach(() => {
  const unexpected = watch?.stop() ?? [];
  watch = undefined;
  if (unexpected.length > 0) throw new Error(`unexpected console.error:\n${unexpected.join('\n')}`);
});
