/** The emulator's own time source: real time shifted by an offset the control API can move (POST /control/clock). */
export interface EmulatorClock {
  now(): number;
  advance(ms: number): void;
}

/** Real time passes, and a test or the preview can jump ahead (e.g. past a token's 60 minutes, docs/platform.md#token). */
export class OffsetClock implements EmulatorClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
