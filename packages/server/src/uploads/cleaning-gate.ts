/**
 * Runs a cleaning for a task when its turn comes and its memory fits: `await turn(taskId, bytes, () => clean(...))`,
 * `bytes` the memory its decoding is estimated to hold at its peak (upload-cleaning.ts).
 */
export type CleaningGate = <T>(key: string, bytes: number, clean: () => Promise<T>) => Promise<T>;

interface Waiting {
  bytes: number;
  start: () => void;
  /** How many cleanings that came after it in the turns were let go ahead, as they fitted and it did not. */
  passedOver: number;
}

interface KeyQueue {
  waiting: Waiting[];
  running: number;
  /** When this key last had a turn (a count of turns given), 0 if never since it was last idle. */
  lastTurn: number;
}

/**
 * How often a cleaning too large for the memory left may see smaller ones go ahead of it before it holds them back:
 * enough for a small photo to pass a large one, and bounded, so that a stream of small ones cannot starve a large one.
 */
const PASSES = 4;

/**
 * At most `slots` cleanings at once, their estimated memory within `budgetBytes` (docs/configuration.md#uploads), and
 * turns shared between tasks (docs/api.md#uploads): the next turn goes to the task whose last one is the oldest, a task
 * that had none first, each task's own files in the order they came. So a task sending many files, or a few slow ones,
 * holds every other task back by one file at most. A cleaning whose memory does not fit beside those running waits,
 * and the next task's that fits goes ahead of it (a small photo is not answered after ten large ones), `PASSES` times
 * at most; one alone always runs, however large. Written here, as the pools and queues we know (piscina, tinypool,
 * p-limit, p-queue) keep one line for all and count tasks, not their memory.
 */
export function createCleaningGate(slots: number, budgetBytes: number): CleaningGate {
  let running = 0;
  let runningBytes = 0;
  let turns = 0;
  const queues = new Map<string, KeyQueue>();
  const fits = (bytes: number) => running === 0 || runningBytes + bytes <= budgetBytes;
  const giveTurns = () => {
    while (running < slots) {
      // In turn order: the task served longest ago first, those equally due in the order the keys came.
      const due = [...queues.values()].filter((queue) => queue.waiting.length > 0).sort((a, b) => a.lastTurn - b.lastTurn);
      let next: KeyQueue | undefined;
      for (const queue of due) {
        if (fits(queue.waiting[0]!.bytes)) {
          next = queue;
          break;
        }
        if (queue.waiting[0]!.passedOver >= PASSES) break;
      }
      if (!next) return;
      for (const queue of due) {
        if (queue === next) break;
        queue.waiting[0]!.passedOver += 1;
      }
      const chosen = next.waiting.shift()!;
      running += 1;
      runningBytes += chosen.bytes;
      next.running += 1;
      turns += 1;
      next.lastTurn = turns;
      chosen.start();
    }
  };
  return async (key, bytes, clean) => {
    let queue = queues.get(key);
    if (!queue) queues.set(key, (queue = { waiting: [], running: 0, lastTurn: 0 }));
    const own = queue;
    await new Promise<void>((resolve) => {
      own.waiting.push({ bytes, start: resolve, passedOver: 0 });
      giveTurns();
    });
    try {
      return await clean();
    } finally {
      running -= 1;
      runningBytes -= bytes;
      own.running -= 1;
      if (own.running === 0 && own.waiting.length === 0) queues.delete(key);
      giveTurns();
    }
  };
}
