import sharp from 'sharp';

/** Runs a cleaning when its turn comes: `await turn(() => cleanUpload(...))`. */
export type CleaningGate = <T>(clean: () => Promise<T>) => Promise<T>;

/**
 * How many received files are checked and cleaned at once in this process: one. To turn a photo upright, sharp holds
 * the whole decoded image (a 12 MP phone photo stored sideways is 36 MB of pixels, and about as much again in the
 * decoder's and encoder's buffers), and a HEIC photo is decoded whole (heic-decoding.ts); each cleaning running beside
 * another adds all of that to the server's memory. Ten 10 MB photos arriving at once must not cost ten images' worth
 * (docs/development.md#benchmarks). One at a time, a 12 MP JPEG takes about a third of a second of one core; the others
 * wait their turn in the order they came, while the bytes of other uploads go on arriving, and the other cores stay
 * free for the task API.
 */
const CLEANINGS_AT_ONCE = 1;

export function createCleaningGate(): CleaningGate {
  // Every upload is a new file, so libvips' cache of operations (up to 50 MB by default) would only keep the last
  // images' memory held after their cleaning.
  sharp.cache(false);
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (clean) => {
    if (running < CLEANINGS_AT_ONCE) running += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await clean();
    } finally {
      // The turn passes straight to the next in line, so `running` counts it without a gap another could take.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
