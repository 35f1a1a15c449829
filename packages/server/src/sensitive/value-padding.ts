/**
 * A sensitive value is padded before it is sealed, so the length of what is stored says no more than its mask does
 * (docs/configuration.md#sensitive-values): ISO/IEC 7816-4 padding, one 0x80 byte then zeros, up to the next multiple
 * of PADDING_BLOCK bytes. Written here because neither jose nor node:crypto pads an AES-GCM plaintext.
 */
export const PADDING_BLOCK = 32;

export function padValue(bytes: Uint8Array): Uint8Array {
  const padded = new Uint8Array((Math.floor(bytes.length / PADDING_BLOCK) + 1) * PADDING_BLOCK);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  return padded;
}

/**
 * The value without its padding to blocks of `block` bytes, as its header says (a value keeps the block it was sealed
 * with, should PADDING_BLOCK change); throws when the bytes are not padded as `padValue` pads.
 */
export function unpadValue(padded: Uint8Array, block: unknown): Uint8Array {
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  const wholeBlocks = typeof block === 'number' && Number.isInteger(block) && block > 0 && padded.length % block === 0;
  if (!wholeBlocks || end < 0 || padded[end] !== 0x80) throw new Error('a sensitive value is not padded as its header says');
  return padded.subarray(0, end);
}
