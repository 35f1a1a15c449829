/** Time source passed to everything that reads the time, so tests and the emulator can move it (docs/architecture.md#dependencies-passed-in). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
