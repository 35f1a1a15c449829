import type { FrameLocator, Locator, Page } from '@playwright/test';
import { addDocumentPhotos, photoTexts } from '../document-photos';
import { expect, test, type PreviewPortal } from '../preview-fixtures';

/**
 * work-authorization through the preview on a phone: a workflow that branches on the first answer, with "Back", an
 * answer checked against today on the page and on the server, a sensitive value, photos of the document (the photos
 * step's uploads in depth: preview-document-photos.spec.ts), the appointment slots the developer has the backend's
 * stand-in offer in the Partner backend panel (nothing, then its sample), and a verification the panel resolves.
 */
const UTC_DAY_MS = 86_400_000;
/** A day as the server's check counts it: UTC, YYYY-MM-DD. */
const utcDay = (offset: number) => new Date(Date.now() + offset * UTC_DAY_MS).toISOString().slice(0, 10);

async function open(preview: PreviewPortal, page: Page): Promise<FrameLocator> {
  await preview.open();
  await page.getByLabel('Workflow').selectOption('work-authorization');
  await preview.assign({ title: 'Work authorization' });
  // The first step may be the prerendered HTML: answered before the app has the page, the answer would be lost.
  await expect(preview.frame.locator('html')).toHaveAttribute('data-interactive', '');
  return preview.frame;
}

/** The appointment: the stand-in's slots for the postcode, one chosen; then the verification waits on the partner. */
async function bookAndVerify(preview: PreviewPortal, page: Page, names: { continue: string; waiting: string }): Promise<void> {
  const { frame } = preview;
  await frame.getByRole('radio').first().check();
  await preview.checkAccessibility(`appointment (${names.continue})`);
  await frame.getByRole('button', { name: names.continue }).click();

  await expect(frame.getByRole('heading', { name: names.waiting })).toBeVisible();
  // Nothing to go back to nor start over while the partner verifies (restartWhileAwaiting: false).
  await expect(frame.getByRole('button')).toHaveCount(0);
  await preview.checkAccessibility(`verification waiting (${names.continue})`);
  const backend = page.getByRole('region', { name: 'Partner backend' });
  await backend.getByRole('button', { name: 'Report passed' }).click();
  await expect(page.getByRole('heading', { name: 'Task finished: continuing to the next task' })).toBeVisible({ timeout: 5_000 });
  await expect(preview.status).toHaveText('Completed');
}

const backButton = (frame: FrameLocator, name: string): Locator => frame.getByRole('button', { name, exact: true });

test.describe('on a 375 × 667 phone', () => {
  test.use({ viewport: { width: 375, height: 667 }, hasTouch: true });

  test('a worker who is not a citizen gives a document, has a past expiry date refused, goes back to fix it, and completes', async ({
    preview,
    page,
    consoleErrors,
  }) => {
    consoleErrors.expect(/status of 400 .*\/api\/task\/steps\/document\)$/, 'the server refuses a past expiry date on purpose');
    const frame = await open(preview, page);
    await expect(frame.getByRole('heading', { name: 'Are you a citizen?' })).toBeVisible();
    await expect(frame.getByText('Step 1 of 6')).toBeVisible();
    await expect(backButton(frame, 'Back')).toHaveCount(0);
    await preview.checkAccessibility('citizenship');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByText('Choose yes or no.')).toBeVisible();
    await frame.getByLabel('No').check();
    await frame.getByRole('button', { name: 'Continue' }).click();

    // The branch for non-citizens: the document, step 2 of the 6 either branch takes.
    const heading = frame.getByRole('heading', { name: 'Your work authorization document' });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await expect(frame.getByText('Step 2 of 6')).toBeVisible();
    const expiry = frame.getByLabel('Expiry date');
    await frame.getByLabel('Document type').selectOption('passport');
    // The step's check runs on the page first: today is not after today.
    await expiry.fill(utcDay(0));
    await frame.getByRole('button', { name: 'Continue' }).click();
    const past = frame.getByText('The expiry date must be after today', { exact: false });
    await expect(past).toBeVisible();
    await expect(expiry).toBeFocused();
    await expect(expiry).toHaveAttribute('aria-invalid', 'true');
    await preview.checkAccessibility('document with its expiry date refused');

    // The server's own check: a date it refuses (sent as another page would send it) lands on the same input.
    await expiry.fill(utcDay(30));
    await expect(past).toHaveCount(0);
    await page.route('**/api/task/steps/document', (route) =>
      route.continue({ postData: JSON.stringify({ data: { documentType: 'passport', expiryDate: utcDay(-1) } }) }),
    );
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(past).toBeVisible();
    await expect(expiry).toBeFocused();
    await page.unroute('**/api/task/steps/document');
    await frame.getByRole('button', { name: 'Continue' }).click();

    // Both branches meet again: a photo of each side of the document.
    const photos = frame.getByRole('heading', { name: 'Photos of your document' });
    await expect(photos).toBeVisible();
    await expect(frame.getByText('Step 3 of 6')).toBeVisible();
    await addDocumentPhotos(frame, photoTexts.en);
    await preview.checkAccessibility('photos');
    await frame.getByRole('button', { name: 'Continue' }).click();

    await expect(frame.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
    await expect(frame.getByText('Step 4 of 6')).toBeVisible();
    await preview.checkAccessibility('postcode');

    // Back, twice: the photos as saved, then the document again with its answer, to edit; each heading takes the focus.
    await backButton(frame, 'Back').click();
    await expect(photos).toBeFocused();
    await expect(frame.getByRole('img', { name: 'Your file: Front of the document' })).toBeVisible();
    await backButton(frame, 'Back').click();
    await expect(heading).toBeFocused();
    await expect(frame.getByText('Step 2 of 6')).toBeVisible();
    await expect(frame.getByLabel('Document type')).toHaveValue('passport');
    await expect(expiry).toHaveValue(utcDay(30));
    await expect(preview.panel.getByTestId('latest-label')).toHaveText('Step 2 of 6 · Document');
    await frame.getByLabel('Document type').selectOption('work-visa');
    await frame.getByRole('button', { name: 'Continue' }).click();
    // The photos are kept on the path: they go on as they are.
    await expect(photos).toBeVisible();
    await expect(frame.getByRole('img', { name: 'Your file: Back of the document' })).toBeVisible();
    await frame.getByRole('button', { name: 'Continue' }).click();

    await frame.getByLabel('Postcode').fill('28013');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByRole('heading', { name: 'Book a verification appointment' })).toBeVisible();
    await expect(frame.getByText('Step 5 of 6')).toBeVisible();
    await bookAndVerify(preview, page, { continue: 'Continue', waiting: 'We are verifying your documents' });
  });

  test.describe('in Spanish', () => {
    test.use({ locale: 'es-ES' });

    test('a citizen gives a national ID, goes back, finds it masked and types it again, and completes', async ({ preview, page }) => {
      const frame = await open(preview, page);
      await expect(frame.getByRole('heading', { name: '¿Eres ciudadano?' })).toBeVisible();
      await expect(frame.getByText('Paso 1 de 6')).toBeVisible();
      await preview.checkAccessibility('citizenship in Spanish');
      await frame.getByLabel('Sí').check();
      await frame.getByRole('button', { name: 'Continuar' }).click();

      const heading = frame.getByRole('heading', { name: 'Tu número de documento nacional' });
      await expect(heading).toBeVisible();
      await expect(frame.getByText('Paso 2 de 6')).toBeVisible();
      const nationalId = frame.getByRole('textbox', { name: 'Número de documento nacional' });
      await nationalId.fill('ab12cd');
      await preview.checkAccessibility('national ID in Spanish');
      await frame.getByRole('button', { name: 'Continuar' }).click();

      const photos = frame.getByRole('heading', { name: 'Fotos de tu documento' });
      await expect(photos).toBeVisible();
      await expect(frame.getByText('Paso 3 de 6')).toBeVisible();
      await addDocumentPhotos(frame, photoTexts.es);
      await preview.checkAccessibility('photos in Spanish');
      await frame.getByRole('button', { name: 'Continuar' }).click();

      await expect(frame.getByRole('heading', { name: '¿Dónde vives?' })).toBeVisible();
      await backButton(frame, 'Volver').click();
      await expect(photos).toBeFocused();
      await backButton(frame, 'Volver').click();
      await expect(heading).toBeFocused();
      // The saved value comes back masked: the input is empty, and says a number ending in CD is saved.
      await expect(nationalId).toHaveValue('');
      await expect(nationalId).toHaveAccessibleDescription(/termina en CD/);
      await expect(frame.getByText('••••', { exact: false })).toHaveCount(0);
      await preview.checkAccessibility('national ID after going back, in Spanish');
      await nationalId.fill('AB12CD');
      await frame.getByRole('button', { name: 'Continuar' }).click();
      await expect(photos).toBeVisible();
      await frame.getByRole('button', { name: 'Continuar' }).click();

      // The developer makes the backend's stand-in offer nothing for the first postcode: the worker goes back to change it.
      const offerModes = page
        .getByRole('region', { name: 'Partner backend' })
        .getByRole('group', { name: 'The next offer requests are answered with' });
      await offerModes.getByLabel('none (nothing to choose)').check();
      await expect(offerModes.getByLabel('none (nothing to choose)')).toBeChecked();
      const postcode = frame.getByLabel('Código postal');
      await postcode.fill('08001');
      await preview.checkAccessibility('postcode in Spanish');
      await frame.getByRole('button', { name: 'Continuar' }).click();
      await expect(frame.getByRole('heading', { name: 'Reserva una cita de verificación' })).toBeVisible();
      await expect(frame.getByRole('radio')).toHaveCount(0);
      await preview.checkAccessibility('appointment with nothing offered, in Spanish');
      await offerModes.getByLabel('offers (the step’s sample)').check();
      await expect(offerModes.getByLabel('offers (the step’s sample)')).toBeChecked();
      await frame.getByRole('button', { name: 'Cambiar mi código postal' }).click();
      await expect(postcode).toHaveValue('08001');
      await postcode.fill('08002');
      await frame.getByRole('button', { name: 'Continuar' }).click();
      await expect(frame.getByRole('heading', { name: 'Reserva una cita de verificación' })).toBeVisible();
      await expect(frame.getByText('Paso 5 de 6')).toBeVisible();
      await bookAndVerify(preview, page, { continue: 'Continuar', waiting: 'Estamos verificando tus documentos' });
    });
  });
});
