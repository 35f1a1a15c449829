/**
 * Watches console.error for one test: what it printed that the test did not declare with `expectConsoleError`. The
 * vitest setup (tests/setup/fail-on-console-error.ts) fails the test on anything left (STYLE: epic-stack).
 */
const state = globalThis as typeof globalThis & { __consoleErrorWatch?: ConsoleErrorWatch };

export class ConsoleErrorWatch {
  private readonly expected: RegExp[] = [];
  private readonly unexpected: string[] = [];
  private readonly original = console.error;

  start(): this {
    state.__consoleErrorWatch = this;
    console.error = (...args: unknown[]) => {
      const text = args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg))).join(' ');
      if (!this.expected.some((pattern) => pattern.test(text))) this.unexpected.push(text);
    };
    return this;
  }

  expect(pattern: RegExp): void {
    this.expected.push(pattern);
  }

  /** Restores console.error and returns what was printed unexpectedly. */
  stop(): string[] {
    console.error = this.original;
    if (state.__consoleErrorWatch === this) state.__consoleErrorWatch = undefined;
    return [...this.unexpected];
  }
}

/** Declares that the running test prints a console.error matching `pattern`. */
export function expectConsoleError(pattern: RegExp): void {
  if (!state.__consoleErrorWatch) throw new Error('expectConsoleError outside a test watched by tests/setup/fail-on-console-error.ts');
  state.__consoleErrorWatch.expect(pattern);
}
