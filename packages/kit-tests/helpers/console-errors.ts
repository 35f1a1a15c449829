import { format } from 'node:util';

/**
 * Watches console.error: what was printed that nobody declared with `expectConsoleError`. The vitest setup
 * (packages/kit-tests/setup/fail-on-console-error.ts) keeps one watch per test file, for its hooks, and one per test, and fails on
 * anything left (docs/architecture.md#tests-read-like-behaviour: a test fails on any console.error). A test that replaces console.error itself
 * (`vi.spyOn(console, 'error').mockImplementation(...)`) has taken charge of it: what it swallows never reaches a watch.
 */
const state = globalThis as typeof globalThis & { __consoleErrorWatch?: ConsoleErrorWatch | undefined };

export class ConsoleErrorWatch {
  private readonly expected: RegExp[] = [];
  private readonly unexpected: string[] = [];
  private original: typeof console.error = console.error;
  private previous: ConsoleErrorWatch | undefined;

  /** Takes over console.error until `stop`; watches nest (a test's inside its file's). */
  start(): this {
    this.original = console.error;
    this.previous = state.__consoleErrorWatch;
    state.__consoleErrorWatch = this;
    console.error = (...args: unknown[]) => {
      // As the console would print it: format strings applied, an Error with its stack.
      const text = format(...args);
      if (!this.expected.some((pattern) => pattern.test(text))) this.unexpected.push(text);
    };
    return this;
  }

  expect(pattern: RegExp): void {
    this.expected.push(pattern);
  }

  /** Restores console.error as it was before `start` and returns what was printed unexpectedly. */
  stop(): string[] {
    console.error = this.original;
    if (state.__consoleErrorWatch === this) state.__consoleErrorWatch = this.previous;
    return [...this.unexpected];
  }
}

/**
 * Declares that the running test (or, from beforeAll/afterAll, its file's hooks) prints a console.error matching
 * `pattern`; `reason` says why that error is the expected outcome, so the allowance is read with the test.
 */
export function expectConsoleError(pattern: RegExp, reason: string): void {
  if (!state.__consoleErrorWatch)
    throw new Error('expectConsoleError outside a test watched by packages/kit-tests/setup/fail-on-console-error.ts');
  if (reason.trim() === '') throw new Error(`expectConsoleError(${String(pattern)}) needs a reason`);
  state.__consoleErrorWatch.expect(pattern);
}
