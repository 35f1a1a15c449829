import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies the WAL back into the database file from a worker thread with its own connection, so the server's event
 * loop never does it. Left to SQLite, the commit that crosses the auto-checkpoint threshold (1,000 pages) copies them
 * and fsyncs inline: packages/kit-tests/bench/api.ts saw about one commit in 120 take 5 to 9 ms, about 45% of all commit time, and these
 * stalls set the step endpoint's p99. A PASSIVE checkpoint never blocks the writer (a RESTART, past a bound, briefly
 * does: see below); the main connection keeps a much higher auto-checkpoint threshold only as a safety net should
 * this thread fall behind or die.
 */
export const SAFETY_NET_AUTOCHECKPOINT_PAGES = 20_000;
/** WAL frames (pages) past which the thread rewinds the WAL: 4,000 pages of 4 KB keep it near 16 MB. */
const RESTART_FRAMES = 4_000;

export interface SqliteCheckpointer {
  stop(): Promise<void>;
  /**
   * Copies the whole WAL into the database file and truncates it to nothing, from the thread: after an erasure, so
   * no old frame keeps an erased value (docs/operations.md#erasure). False when readers or a writer kept it busy.
   */
  truncate(): Promise<boolean>;
}

export interface CheckpointerOptions {
  filename: string;
  synchronous: 'FULL' | 'NORMAL';
  intervalMs?: number;
  restartFrames?: number;
  /** A failed checkpoint is logged by the caller; the safety net keeps the WAL bounded meanwhile. */
  onError?: (message: string) => void;
}

// CommonJS, evaluated in the worker: a separate file would be lost by the server bundle (build/server/main.mjs).
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const db = new Database(workerData.filename);
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('busy_timeout = 1000');
let reported;
const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    // Under steady writes a PASSIVE checkpoint never catches the last frame, so the WAL is never rewound and grows
    // until the safety net checkpoints it all inline (packages/kit-tests/bench/api.ts: a 1.3 s stall). Past a bound, RESTART: it waits
    // for the writer, copies the few frames PASSIVE left, and makes the next commit start the WAL over.
    if (result && result.log >= workerData.restartFrames) db.pragma('wal_checkpoint(RESTART)');
    reported = undefined;
  } catch (error) {
    const message = String(error && error.message || error);
    // Once per cause, not at every interval: a full disk would otherwise log five lines a second until freed.
    if (message !== reported) parentPort.postMessage({ error: message });
    reported = message;
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') {
    let done = false;
    try {
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)');
      done = Boolean(result) && result.busy === 0;
    } catch (error) {
      parentPort.postMessage({ error: String(error && error.message || error) });
    }
    parentPort.postMessage({ truncated: message.truncate, done });
    return;
  }
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export function startSqliteCheckpointer(options: CheckpointerOptions): SqliteCheckpointer {
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      modulePath,
      filename: options.filename,
      synchronous: options.synchronous,
      intervalMs: options.intervalMs ?? 200,
      restartFrames: options.restartFrames ?? RESTART_FRAMES,
    },
  });
  // A CLI that exits without closing its store must not be held open by this thread.
  worker.unref();
  const truncations = new Map<number, (done: boolean) => void>();
  let nextTruncation = 0;
  worker.on('message', (message: { error?: string; truncated?: number; done?: boolean }) => {
    if (message.error) options.onError?.(message.error);
    if (message.truncated !== undefined) truncations.get(message.truncated)?.(message.done === true);
  });
  worker.on('error', (error) => options.onError?.(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A thread gone (stopped, crashed) answers no truncation: its callers hear `false` instead of waiting for ever.
  void exited.then(() => [...truncations.values()].forEach((answer) => answer(false)));
  let stopping: Promise<void> | undefined;
  return {
    truncate: () => {
      if (stopping) return Promise.resolve(false);
      const id = nextTruncation++;
      return new Promise<boolean>((resolve) => {
        truncations.set(id, (done) => {
          truncations.delete(id);
          resolve(done);
        });
        worker.postMessage({ truncate: id });
      });
    },
    stop: () =>
      (stopping ??= (async () => {
        worker.postMessage('stop');
        // Its database closes between two checkpoints; a thread stuck in one is ended rather than waited for.
        const timer = setTimeout(() => void worker.terminate(), 2_000);
        await exited;
        clearTimeout(timer);
      })()),
  };
}
