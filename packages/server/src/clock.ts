/** Time source passed to everything that reads the time, so tests and the emulator can move it (docs/architecture.md#dependencies-passed-in). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; the emulator uses it to expire tokens without waiting an hour. */
export class ManualClock implements Clock {
  constructor(private current = Date.now()) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(epochMs: number): void {
    this.current = epochMs;
  }
}
