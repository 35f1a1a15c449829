import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator, Page, Route } from '@playwright/test';
import sharp from 'sharp';
import { expect, test, type PreviewPortal } from '../preview-fixtures';

/**
 * work-authorization's `photos` step on a phone, through the preview: two photos taken through the file chooser, with
 * progress and previews; an upload cut by a reload that goes on from the server's offset once the same file is picked
 * again; one paused by an offline period that goes on by itself; a file refused before it is sent and one the server
 * refuses, said in the worker's language; the saved photos shown again after "Back" (GET /api/task/uploads/:id).
 */
const CHUNK = 1024 * 1024;
/**
 * Playwright's trace recorder (on for every test, kept on failure) reads the previews' blob: images with a request the
 * page's CSP refuses (connect-src 'self'); the page itself only draws them (img-src blob:). Run with --trace off, it
 * is not logged.
 */
const blobSnapshot = /^console\.error: Connecting to 'blob:http:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]+' violates .*"connect-src 'self'"/;
const blobSnapshotReason = "the trace recorder's reads of blob: images, which the page's CSP refuses";
const UPLOADS = /\/api\/task\/uploads(\/[^/?]+)?$/;

let directory: string;
let front: string;
let back: string;

test.beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-e2e-photos-'));
  // Noise compresses badly: photos of a few MB, more than one of the page's 1 MB chunks each, as a phone's would be.
  const photo = (mean: number) =>
    sharp({ create: { width: 1400, height: 1000, channels: 3, background: '#777', noise: { type: 'gaussian', mean, sigma: 70 } } })
      .jpeg({ quality: 100 })
      .toBuffer();
  front = join(directory, 'front.jpg');
  back = join(directory, 'back.jpg');
  for (const [file, mean] of [
    [front, 110],
    [back, 150],
  ] as const) {
    const bytes = await photo(mean);
    expect(bytes.length).toBeGreaterThan(1.5 * CHUNK);
    writeFileSync(file, bytes);
  }
  // A file keeps its date between picks, as one in a phone's gallery does: tus finds the upload again by it.
  for (const file of [front, back]) utimesSync(file, new Date('2026-01-05T10:00:00Z'), new Date('2026-01-05T10:00:00Z'));
});
test.afterAll(() => rmSync(directory, { recursive: true, force: true }));

/**
 * The tus requests the task page sent, in order: each PATCH with its Upload-Offset, each HEAD with the offset the server
 * answered (where it has the upload), each POST (a new upload).
 */
function watchUploads(page: Page): { method: string; offset: number | undefined }[] {
  const seen: { method: string; offset: number | undefined }[] = [];
  const offset = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  page.on('request', (request) => {
    if (!UPLOADS.test(new URL(request.url()).pathname) || request.method() === 'HEAD') return;
    seen.push({ method: request.method(), offset: offset(request.headers()['upload-offset']) });
  });
  page.on('response', (response) => {
    if (!UPLOADS.test(new URL(response.url()).pathname) || response.request().method() !== 'HEAD') return;
    seen.push({ method: 'HEAD', offset: offset(response.headers()['upload-offset']) });
  });
  return seen;
}

/** Went on from the server's offset: tus asked it (HEAD) and sent the rest from there, with no new upload (POST). */
function expectResumed(requests: { method: string; offset: number | undefined }[]): void {
  expect(requests.map((request) => request.method)).not.toContain('POST');
  const head = requests.find((request) => request.method === 'HEAD');
  const patch = requests.find((request) => request.method === 'PATCH');
  // The first chunk, all the server got before the cut: the rest goes from there.
  expect(head?.offset).toBe(CHUNK);
  expect(patch?.offset).toBe(head?.offset);
}

/**
 * Holds the PATCH that would send the bytes from `offset`, before a byte of it is sent: the upload is mid-way, the
 * chunks before stored, until the test cuts the connection (`held`'s route). `release` drops it if the test did not,
 * never sends it.
 */
async function holdPatchAt(page: Page, offset: number): Promise<{ held: Promise<Route>; release(): Promise<void> }> {
  let heldRoute: Route | undefined;
  let resolve: (route: Route) => void;
  const held = new Promise<Route>((done) => (resolve = done));
  await page.route(UPLOADS, async (route) => {
    const request = route.request();
    if (heldRoute === undefined && request.method() === 'PATCH' && request.headers()['upload-offset'] === String(offset)) {
      heldRoute = route;
      return resolve(route);
    }
    await route.continue();
  });
  return {
    held,
    release: async () => {
      await heldRoute?.abort('connectionreset').catch(() => {});
      await page.unroute(UPLOADS);
    },
  };
}

/**
 * Drops the connection of every PATCH that would send the bytes from `offset` on, while on: the upload stays mid-way,
 * with the chunks before stored and tus trying again in vain, until `stop`. Dropped before a byte is sent, so the
 * server's offset is exactly `offset` (a request held instead, then its page reloaded, still reached the server).
 */
async function dropPatchesFrom(page: Page, offset: number): Promise<{ dropped: Promise<void>; stop(): Promise<void> }> {
  let resolve: () => void;
  const dropped = new Promise<void>((done) => (resolve = done));
  await page.route(UPLOADS, async (route) => {
    const request = route.request();
    if (request.method() === 'PATCH' && Number(request.headers()['upload-offset']) >= offset) {
      resolve();
      // The document may be gone by now (closeTaskDocument): its request with it.
      return route.abort('connectionreset').catch(() => {});
    }
    await route.continue();
  });
  return { dropped, stop: () => page.unroute(UPLOADS) };
}

/**
 * Closes the task's document as a worker closing the page would, then waits until it is gone. Navigated away from inside,
 * the frame keeps its place, so the routes hold while the document and its tus timers end: a reload alone detaches the
 * frame with a retry's PATCH perhaps paused in the route, and Chromium then lets that request through to the server.
 */
async function closeTaskDocument(frame: FrameLocator): Promise<void> {
  const task = await (await frame.owner().elementHandle())?.contentFrame();
  if (!task) throw new Error('the task frame is not open');
  await task.evaluate(() => window.location.replace('about:blank'));
  await expect.poll(() => task.url()).toBe('about:blank');
}

async function reachPhotos(preview: PreviewPortal, page: Page, names = { yes: 'Yes', id: 'National ID number', go: 'Continue' }) {
  await preview.open();
  await page.getByLabel('Workflow').selectOption('work-authorization');
  await preview.assign({ title: 'Work authorization' });
  const { frame } = preview;
  await expect(frame.locator('html')).toHaveAttribute('data-interactive', '');
  await frame.getByRole('radio', { name: names.yes }).check();
  await frame.getByRole('button', { name: names.go }).click();
  await frame.getByRole('textbox', { name: names.id }).fill('ZX9081726');
  await frame.getByRole('button', { name: names.go }).click();
  return frame;
}

/** Picks `file` for a side through the file chooser, as a worker pressing "Choose a file" would. */
async function choose(page: Page, frame: FrameLocator, side: string, file: string, button = /^Choose (a|another) file$/) {
  const chooser = page.waitForEvent('filechooser');
  await frame.getByRole('group', { name: side }).getByRole('button', { name: button }).click();
  await (await chooser).setFiles(file);
}

test.describe('on a 375 × 667 phone', () => {
  test.use({ viewport: { width: 375, height: 667 }, hasTouch: true });

  test('two photos: progress, previews, a reload and an offline period mid-upload, each going on from the server offset', async ({
    preview,
    page,
    context,
    consoleErrors,
  }) => {
    test.setTimeout(120_000);
    consoleErrors.expect(/ERR_INTERNET_DISCONNECTED/, 'the browser is offline on purpose; the request it cuts is logged');
    consoleErrors.expect(/ERR_CONNECTION_RESET/, "the test drops the front's connection mid-upload; each dropped request is logged");
    consoleErrors.expect(blobSnapshot, blobSnapshotReason);
    const frame = await reachPhotos(preview, page);
    const heading = frame.getByRole('heading', { name: 'Photos of your document' });
    await expect(heading).toBeVisible();
    await expect(frame.getByText('Step 3 of 6')).toBeVisible();
    const frontGroup = frame.getByRole('group', { name: 'Front of the document' });
    const backGroup = frame.getByRole('group', { name: 'Back of the document' });
    await expect(frontGroup.getByRole('button', { name: 'Take a photo' })).toBeVisible();
    await preview.checkAccessibility('photos, none taken yet');

    // Nothing chosen: each side says so, and the focus goes to the front's first button.
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frontGroup.getByText('Add a photo of the front of your document.')).toBeVisible();
    await expect(backGroup.getByText('Add a photo of the back of your document.')).toBeVisible();
    await expect(frontGroup.getByRole('button', { name: 'Take a photo' })).toBeFocused();
    await expect(frontGroup.getByRole('button', { name: 'Take a photo' })).toHaveAccessibleDescription(
      /The side with your photo.*Add a photo/,
    );
    await preview.checkAccessibility('photos, refused with none taken');

    // The front: cut after its first chunk, so the progress bar shows it mid-way.
    const requests = watchUploads(page);
    const drop = await dropPatchesFrom(page, CHUNK);
    await choose(page, frame, 'Front of the document', front);
    const frontProgress = frontGroup.getByRole('progressbar', { name: 'Front of the document' });
    await drop.dropped;
    await expect(frontProgress).toBeVisible();
    await expect.poll(async () => Number(await frontProgress.getAttribute('value'))).toBeGreaterThanOrEqual(CHUNK);
    await expect(frontGroup.getByText(/^1 MB of [\d.]+ MB sent, [\d.]+ (MB|kB) left\.$/)).toBeVisible();
    await expect(frontGroup.getByRole('status')).toHaveText('Uploading front.jpg…');
    await expect(frontGroup.getByRole('img', { name: 'Your file: Front of the document' })).toBeVisible();
    await preview.checkAccessibility('photos, the front uploading');

    // The page is closed with the upload mid-way, then opened again: the server has the first chunk.
    await closeTaskDocument(frame);
    await drop.stop();
    await page.reload();
    await expect(heading).toBeVisible();
    await expect(frontGroup.getByRole('status')).toHaveText(/^The upload of front\.jpg stopped at \d+% when the page closed\./);
    await preview.checkAccessibility('photos after a reload mid-upload');
    const beforeResume = requests.length;
    await choose(page, frame, 'Front of the document', front);
    await expect(frontGroup.getByRole('status')).toHaveText('front.jpg is uploaded.', { timeout: 20_000 });
    expectResumed(requests.slice(beforeResume));
    await expect(frontGroup.getByRole('img', { name: 'Your file: Front of the document' })).toBeVisible();

    // The back: the connection drops mid-way; the upload waits, says so, and goes on by itself when it is back.
    const hold = await holdPatchAt(page, CHUNK);
    await choose(page, frame, 'Back of the document', back);
    const cut = await hold.held;
    await context.setOffline(true);
    await cut.abort('internetdisconnected');
    await hold.release();
    await expect(backGroup.getByRole('status')).toHaveText(/^No connection: the upload is paused\./);
    await expect(backGroup.getByRole('button', { name: 'Try again now' })).toBeVisible();
    await preview.checkAccessibility('photos, the back paused offline');
    const beforeOnline = requests.length;
    await context.setOffline(false);
    await expect(backGroup.getByRole('status')).toHaveText('back.jpg is uploaded.', { timeout: 30_000 });
    expectResumed(requests.slice(beforeOnline));
    await expect(backGroup.getByRole('img', { name: 'Your file: Back of the document' })).toBeVisible();
    await expect(frame.getByText('Add a photo of', { exact: false })).toHaveCount(0);
    await preview.checkAccessibility('photos, both uploaded');

    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
    await expect(frame.getByText('Step 4 of 6')).toBeVisible();

    // "Back": the saved photos again, as the server keeps them, drawn (CSP allows their blob: URLs).
    await frame.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(heading).toBeFocused();
    for (const [group, name] of [
      [frontGroup, 'Your file: Front of the document'],
      [backGroup, 'Your file: Back of the document'],
    ] as const) {
      const image = group.getByRole('img', { name });
      await expect(image).toBeVisible();
      await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
      await expect(group.getByRole('status')).toHaveText('Uploaded.');
    }
    await preview.checkAccessibility('photos again after Back');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
  });

  test.describe('in Spanish', () => {
    test.use({ locale: 'es-ES' });

    test('a file of another type is refused before it is sent, and one the server refuses is said so, in Spanish', async ({
      preview,
      page,
      consoleErrors,
    }) => {
      consoleErrors.expect(/status of 415 .*\/api\/task\/uploads\//, 'the server refuses a text file named .jpg on purpose');
      consoleErrors.expect(blobSnapshot, blobSnapshotReason);
      const frame = await reachPhotos(preview, page, { yes: 'Sí', id: 'Número de documento nacional', go: 'Continuar' });
      await expect(frame.getByRole('heading', { name: 'Fotos de tu documento' })).toBeVisible();
      const frontGroup = frame.getByRole('group', { name: 'Cara delantera del documento' });
      const requests = watchUploads(page);

      const notes = join(directory, 'notas.txt');
      writeFileSync(notes, 'not a photo\n');
      await choose(page, frame, 'Cara delantera del documento', notes, /^Elegir (un|otro) archivo$/);
      await expect(frontGroup.getByText('No aceptamos este archivo. Elige un archivo JPEG, PNG o HEIC.')).toBeVisible();
      expect(requests).toEqual([]);

      // Named and typed as a JPEG: only the server, reading its bytes, can tell.
      const fake = join(directory, 'foto.jpg');
      writeFileSync(fake, 'not a photo either\n'.repeat(50));
      await choose(page, frame, 'Cara delantera del documento', fake, /^Elegir (un|otro) archivo$/);
      await expect.poll(() => requests.map((request) => request.method)).toEqual(['POST', 'PATCH']);
      await expect(frontGroup.getByText('No aceptamos este archivo. Elige un archivo JPEG, PNG o HEIC.')).toBeVisible();
      await expect(frontGroup.getByRole('button', { name: 'Hacer una foto' })).toHaveAccessibleDescription(/No aceptamos este archivo/);
      await preview.checkAccessibility('photos in Spanish, a file refused');
    });
  });
});
