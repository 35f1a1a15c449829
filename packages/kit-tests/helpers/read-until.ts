/**
 * Reads until `done` says the value read is the one awaited, or `timeoutMs` has passed: the last value read either
 * way, for the test to assert on (a failure then shows what was there instead).
 */
export async function readUntil<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
