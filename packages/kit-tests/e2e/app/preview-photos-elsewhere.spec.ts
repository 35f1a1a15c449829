import { addPhotosAsCitizen } from '../appointment-steps';
import { photoTexts } from '../document-photos';
import { expect, openElsewhere, test } from '../preview-fixtures';

/**
 * Photos uploaded but the step not saved yet come back from the server, not from the browser's storage
 * (docs/api.md#uploads, `GET /api/task/uploads`): the same task link opened on another device shows them done, and the
 * step is saved without sending them again.
 */

test('photos uploaded in one browser show as done in a fresh one, which saves the step without uploading again', async ({
  preview,
  page,
  browser,
}) => {
  await preview.open();
  await preview.assign({ workflow: 'work-authorization', title: 'Work authorization' });
  const { frame } = preview;
  await addPhotosAsCitizen(frame);

  const taskUrl = new URL((await preview.iframe.getAttribute('src'))!, page.url()).href;
  const elsewhere = await openElsewhere(browser, taskUrl);
  try {
    const sent: string[] = [];
    elsewhere.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/task/uploads') && ['POST', 'PATCH'].includes(request.method()))
        sent.push(request.method());
    });
    await expect(elsewhere.getByRole('heading', { name: 'Photos of your document' })).toBeVisible();
    for (const side of [photoTexts.en.front, photoTexts.en.back]) {
      const group = elsewhere.getByRole('group', { name: side });
      await expect(group.getByRole('status')).toHaveText('Uploaded.');
      const image = group.getByRole('img', { name: `Your file: ${side}` });
      await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(320);
    }
    await elsewhere.getByRole('button', { name: 'Continue' }).click();
    await expect(elsewhere.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
    expect(sent).toEqual([]);
  } finally {
    await elsewhere.context().close();
  }
});
