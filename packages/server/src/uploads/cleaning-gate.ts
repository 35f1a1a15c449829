/** Runs a cleaning for a task when its turn comes: `await turn(taskId, () => clean(...))`. */
export type CleaningGate = <T>(key: string, clean: () => Promise<T>) => Promise<T>;

interface KeyQueue {
  waiting: (() => void)[];
  running: number;
  /** When this key last had a turn (a count of turns given), 0 if never since it was last idle. */
  lastTurn: number;
}

/**
 * At most `slots` cleanings at once, and turns shared between tasks (docs/api.md#uploads): the next turn goes to the
 * task whose last one is the oldest, a task that had none first, each task's own files in the order they came. So a
 * task sending many files, or a few slow ones, holds every other task back by one file at most, where one line in the
 * order of arrival put each of its files ahead of a file that came after them. Written here, as the promise queues
 * we know (p-limit, p-queue) keep one line for all.
 */
export function createCleaningGate(slots: number): CleaningGate {
  let running = 0;
  let turns = 0;
  const queues = new Map<string, KeyQueue>();
  const giveTurns = () => {
    while (running < slots) {
      let next: KeyQueue | undefined;
      // In the order the keys came: the first of those equally due.
      for (const queue of queues.values()) if (queue.waiting.length > 0 && (!next || queue.lastTurn < next.lastTurn)) next = queue;
      if (!next) return;
      running += 1;
      next.running += 1;
      turns += 1;
      next.lastTurn = turns;
      next.waiting.shift()!();
    }
  };
  return async (key, clean) => {
    let queue = queues.get(key);
    if (!queue) queues.set(key, (queue = { waiting: [], running: 0, lastTurn: 0 }));
    const own = queue;
    await new Promise<void>((resolve) => {
      own.waiting.push(resolve);
      giveTurns();
    });
    try {
      return await clean();
    } finally {
      running -= 1;
      own.running -= 1;
      if (own.running === 0 && own.waiting.length === 0) queues.delete(key);
      giveTurns();
    }
  };
}
