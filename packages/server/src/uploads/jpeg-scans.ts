import { open, type FileHandle } from 'node:fs/promises';

/** How much of the file is read at a time: the walk holds no more of it than this. */
const WINDOW_BYTES = 64 * 1024;

/** Markers without a length after them: TEM, RST0-7, SOI, EOI (ITU T.81, B.1.1.3). */
const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);
const SOS = 0xda;
const EOI = 0xd9;

/**
 * The scans (SOS markers) of the JPEG at `path`, counted up to `stopAbove + 1`: each scan of a progressive JPEG makes
 * the decoder go over every block of its components again, so their count times the pixels is what decoding costs
 * (docs/api.md#uploads). Walked by hand, as neither sharp's `metadata()` (only `isProgressive`) nor file-type reports
 * it: from marker to marker by their lengths, and through each scan's entropy-coded data to the next marker, as
 * libjpeg finds it (a 0xFF byte followed by neither 0x00, a stuffed byte, nor a restart marker), so every scan the
 * decoder would read is counted. The file is read a window at a time, and no further once past the bound.
 */
export async function countJpegScans(path: string, stopAbove: number): Promise<number> {
  const file = await open(path, 'r');
  try {
    const reader = windowReader(file);
    let scans = 0;
    let position = 2;
    while (scans <= stopAbove) {
      // A marker is 0xFF and its code; 0xFF fill bytes may come before it, and libjpeg skips anything else there.
      position = await reader.indexOfFF(position);
      if (position < 0) return scans;
      const marker = await reader.byteAt(position + 1);
      if (marker === undefined || marker === EOI) return scans;
      if (marker === 0xff || marker === 0x00 || isStandalone(marker)) {
        position += marker === 0xff ? 1 : 2;
        continue;
      }
      const high = await reader.byteAt(position + 2);
      const low = await reader.byteAt(position + 3);
      if (high === undefined || low === undefined) return scans;
      position += 2 + ((high << 8) | low);
      if (marker === SOS) {
        scans += 1;
        position = await reader.nextMarkerAfterEntropyData(position);
        if (position < 0) return scans;
      }
    }
    return scans;
  } finally {
    await file.close();
  }
}

/** The file read a window at a time, from any position. */
function windowReader(file: FileHandle) {
  const window = Buffer.alloc(WINDOW_BYTES);
  let start = 0;
  let length = 0;
  /** Makes the window hold `position` and the byte after it, but at the file's end; false past it. */
  const load = async (position: number) => {
    if (position >= start && position + 1 < start + length) return true;
    const { bytesRead } = await file.read(window, 0, WINDOW_BYTES, position);
    [start, length] = [position, bytesRead];
    return bytesRead > 0;
  };
  const byteAt = async (position: number): Promise<number | undefined> => ((await load(position)) ? window[position - start] : undefined);
  const indexOfFF = async (from: number): Promise<number> => {
    for (let position = from; await load(position); position = start + length) {
      const found = window.indexOf(0xff, position - start);
      if (found >= 0 && found < length) return start + found;
    }
    return -1;
  };
  return {
    byteAt,
    indexOfFF,
    /** Where the marker after a scan's entropy-coded data starts, or -1 at the file's end. */
    async nextMarkerAfterEntropyData(from: number): Promise<number> {
      // Within a window without an await: a photo's entropy-coded data holds a 0xFF byte every few hundred bytes.
      for (let position = from; await load(position);) {
        let found = window.indexOf(0xff, position - start);
        while (found >= 0 && found < length - 1) {
          const next = window[found + 1]!;
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7)) return start + found;
          found = window.indexOf(0xff, found + 1);
        }
        // A 0xFF last in the window is read again with the byte after it, at the start of the next one.
        if (found !== length - 1) position = start + length;
        else if (found > 0) position = start + found;
        else return -1;
      }
      return -1;
    },
  };
}
