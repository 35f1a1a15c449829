import sharp from 'sharp';

/**
 * A progressive JPEG of one grey, `width` x `height`, made of sharp's own scans and `extraScans` more: each a copy of
 * its first scan of the luma's AC coefficients, made the first of all 63 at full precision (Ss 1, Se 63, Ah 0, Al 0).
 * On an image of one colour such a scan is a few end-of-band runs, some 70 bytes, which a decoder accepts again and
 * again (no refinement to put out of order), yet it goes over every block of the image for each: a "scan bomb",
 * small on the wire and seconds of a core to decode (docs/api.md#uploads).
 */
export async function scanBomb(options: { width: number; height: number; extraScans: number }): Promise<Buffer> {
  const { width, height, extraScans } = options;
  const base = await sharp({ create: { width, height, channels: 3, background: '#888' } })
    .jpeg({ progressive: true })
    .toBuffer();
  const segments = jpegSegments(base);
  const index = segments.findIndex((segment) => {
    const [count, component, , start] = base.subarray(segment.start + 4, segment.start + 8);
    return segment.marker === 0xda && count === 1 && component === 1 && start !== 0;
  });
  const scan = segments[index];
  const table = segments[index - 1];
  if (!scan || table?.marker !== 0xc4) throw new Error("sharp's progressive JPEG has no luma AC scan after its own table");
  const copy = Buffer.from(base.subarray(scan.start, scan.end));
  // After 0xFFDA, its length and one component (id, tables): Ss, Se, then Ah and Al in one byte.
  copy[7] = 1;
  copy[8] = 63;
  copy[9] = 0x00;
  const end = segments.at(-1)!.start;
  const tableBytes = base.subarray(table.start, table.end);
  return Buffer.concat([base.subarray(0, end), tableBytes, ...Array.from({ length: extraScans }, () => copy), base.subarray(end)]);
}

/** The file's markers after SOI, each with its bytes (a scan's entropy-coded data with it), EOI last. */
function jpegSegments(jpeg: Buffer): { marker: number; start: number; end: number }[] {
  const segments = [];
  let position = 2;
  while (position < jpeg.length) {
    const marker = jpeg[position + 1]!;
    if (marker === 0xd9) {
      segments.push({ marker, start: position, end: position + 2 });
      break;
    }
    let end = position + 2 + jpeg.readUInt16BE(position + 2);
    if (marker === 0xda) {
      // Through the entropy-coded data: 0xFF 0x00 is a stuffed byte, 0xFF 0xD0-0xD7 a restart marker.
      for (let next = jpeg.indexOf(0xff, end); ; next = jpeg.indexOf(0xff, next + 2)) {
        const after = jpeg[next + 1]!;
        if (after !== 0x00 && (after < 0xd0 || after > 0xd7)) {
          end = next;
          break;
        }
      }
    }
    segments.push({ marker, start: position, end });
    position = end;
  }
  return segments;
}
