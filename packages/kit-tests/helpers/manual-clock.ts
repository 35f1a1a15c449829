import type { Clock } from '@partner-task-kit/server/clock';

/** A clock that only moves when told to: a test reaches an hour later, or a year, without waiting for it. */
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
