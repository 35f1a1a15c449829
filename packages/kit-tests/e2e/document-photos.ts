import { expect, type FrameLocator } from '@playwright/test';
import sharp from 'sharp';

/** The texts of work-authorization's photos step that the worker's moves go by, in the page's language. */
export interface PhotoTexts {
  front: string;
  back: string;
  /** The status of a side once its file is uploaded. */
  uploaded: (file: string) => string;
}

export const photoTexts = {
  en: { front: 'Front of the document', back: 'Back of the document', uploaded: (file: string) => `${file} is uploaded.` },
  es: { front: 'Cara delantera del documento', back: 'Cara trasera del documento', uploaded: (file: string) => `${file} está subido.` },
} satisfies Record<string, PhotoTexts>;

/**
 * work-authorization's photos step answered as a worker would: a small photo for each side, picked through each side's
 * file input (the one "Choose a file" presses), each uploaded before the step goes on.
 */
export async function addDocumentPhotos(frame: FrameLocator, texts: PhotoTexts): Promise<void> {
  for (const [side, name, color] of [
    [texts.front, 'front.jpg', '#2a6'],
    [texts.back, 'back.jpg', '#a62'],
  ] as const) {
    const buffer = await sharp({ create: { width: 320, height: 200, channels: 3, background: color } })
      .jpeg()
      .toBuffer();
    const group = frame.getByRole('group', { name: side });
    await group.locator('input[type="file"]:not([capture])').setInputFiles({ name, mimeType: 'image/jpeg', buffer });
    await expect(group.getByRole('status')).toHaveText(texts.uploaded(name));
  }
}
