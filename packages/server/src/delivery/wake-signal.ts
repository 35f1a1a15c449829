/**
 * Lets the relay sleep until there is something to do: woken at once by a new outbox row or a finished delivery,
 * or after a timeout (the safety-net poll, or the time the next retry falls due).
 */
export class WakeSignal {
  private pending = false;
  private release: (() => void) | undefined;

  wake(): void {
    this.pending = true;
    this.release?.();
  }

  /** Resolves on the next wake (or at once if one came since the last wait), or after `timeoutMs`. */
  wait(timeoutMs: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pending = false;
        this.release = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      this.release = done;
    });
  }
}
