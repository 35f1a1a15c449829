import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Lock, Locker, RequestRelease } from '@tus/server';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/store.ts';
import { releaseUploadLock, renewUploadLock, takeUploadLock, wantUploadLock } from '../store/upload-locks.repository.ts';
import { tusError } from './tus-answers.ts';

export interface UploadLockTimings {
  /** How long a lock outlives the last renewal of its holder: what an instance that died holds its uploads for. */
  leaseMs: number;
  /** How often a holder renews, and so how soon it hears that another request waits. */
  renewMs: number;
  /** How often a waiting request tries again. */
  pollMs: number;
  /** How long a request waits before it gives up with 423 `upload_busy`, which tus clients retry. */
  waitMs: number;
}

const DEFAULT_TIMINGS: UploadLockTimings = { leaseMs: 10_000, renewMs: 1_000, pollMs: 200, waitMs: 20_000 };

/**
 * tus's locks in the database (docs/deploying.md#uploads-with-several-instances), so they hold across instances:
 * @tus/server's own locker is a map in one process. A phone whose connection dropped sends its next request (HEAD,
 * then PATCH from the offset it is told) at once, and a load balancer may send it to another instance than the one
 * still reading the last PATCH. That instance has stored nothing of the bytes it holds yet: without a shared lock the
 * new request reads an offset that is about to change, and both write the same parts. As tus's MemoryLocker does, a
 * waiting request asks the holder to let go; the holder hears it at its next renewal and ends its request, keeping
 * what it received (tus's lock drain), then the waiting one goes on.
 */
export function databaseUploadLocker(deps: { store: Store; clock: Clock; timings?: Partial<UploadLockTimings> }): Locker {
  const timings = { ...DEFAULT_TIMINGS, ...deps.timings };
  return { newLock: (uploadId) => new DatabaseLock(uploadId, deps.store, deps.clock, timings) };
}

class DatabaseLock implements Lock {
  /** One holder per request, also within one process. */
  private readonly holder = randomBytes(12).toString('base64url');
  private renewing: NodeJS.Timeout | undefined;

  constructor(
    private readonly uploadId: string,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly timings: UploadLockTimings,
  ) {}

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { uploadId, holder } = this;
    const giveUpAt = Date.now() + this.timings.waitMs;
    for (;;) {
      if (stopSignal.aborted || Date.now() >= giveUpAt)
        throw tusError('upload_busy', 'Another request is still writing this upload; try again in a moment.');
      const now = this.clock.now();
      try {
        if (await takeUploadLock(this.store.db, { uploadId, holder, now, leaseMs: this.timings.leaseMs })) break;
        await wantUploadLock(this.store.db, uploadId);
      } catch {
        throw tusError('database_unreachable', 'The database did not answer; try again in a moment.');
      }
      await sleep(this.timings.pollMs, undefined, { signal: stopSignal }).catch(() => undefined);
    }
    this.renewing = setInterval(() => void this.renew(requestRelease), this.timings.renewMs);
    this.renewing.unref();
  }

  async unlock(): Promise<void> {
    clearInterval(this.renewing);
    this.renewing = undefined;
    // What the request did is done: a database that does not answer now leaves the row to its lease, not the request
    // to an error.
    await releaseUploadLock(this.store.db, { uploadId: this.uploadId, holder: this.holder }).catch(() => undefined);
  }

  private async renew(requestRelease: RequestRelease): Promise<void> {
    const { uploadId, holder } = this;
    try {
      const state = await renewUploadLock(this.store.db, { uploadId, holder, now: this.clock.now(), leaseMs: this.timings.leaseMs });
      // Lost (this instance stalled past its lease and another took over) or wanted: either way, stop writing.
      if (this.renewing && (!state.held || state.wanted)) await requestRelease();
    } catch {
      // The database did not answer this once: the lease runs on, and the next renewal tries again.
    }
  }
}
