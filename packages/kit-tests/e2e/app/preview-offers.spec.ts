import { offerModes, reachAppointment } from '../appointment-steps';
import { expect, test } from '../preview-fixtures';

/**
 * work-authorization's appointment step through the preview: the server asks emulator mode's stand-in of the partner's
 * backend for the slots, and the "Partner backend" panel lists each signed request and chooses the next answer
 * (docs/connecting-your-backend.md#offers, docs/development.md#the-partner-backend-panel).
 */
test('the worker books a slot the backend offered for their postcode; the request is signed and never carries the ID', async ({
  preview,
  page,
}) => {
  await preview.open();
  await preview.assign({ workflow: 'work-authorization', title: 'Work authorization' });
  const backend = await reachAppointment(preview.frame, page);

  const slots = preview.frame.getByRole('group', { name: 'Available appointments' });
  // Monday 7 January 2030, 09:00 in Madrid in the sample: formatted for the worker's language, in the place's zone.
  const first = slots.getByRole('radio', { name: /2030.*Verification centre, 28001/ }).first();
  await expect(first).toBeVisible();
  await expect(slots.getByRole('radio')).toHaveCount(2);

  const request = backend.getByRole('list', { name: 'Offer requests, newest first' }).getByRole('listitem');
  await expect(request).toHaveCount(1);
  await expect(request).toContainText('work-authorization / appointment');
  await expect(request).toContainText('signature verified');
  await request.getByText('Body').click();
  await expect(request.locator('pre')).toContainText('"postcode": "28001"');
  await expect(request.locator('pre')).not.toContainText('ZX9081726');
  await preview.checkAccessibility('appointment slots with the offer requests');

  // Nothing chosen: the group says so and takes the focus.
  await preview.frame.getByRole('button', { name: 'Continue' }).click();
  await expect(slots).toContainText('Choose one of the appointments.');
  await first.check();
  await preview.frame.getByRole('button', { name: 'Continue' }).click();
  await expect(preview.frame.getByRole('heading', { name: 'We are verifying your documents' })).toBeVisible();
});

test('an error, then too slow: the worker sees "Try again", and goes on once the backend answers', async ({
  preview,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(
    /status of 424 .*\/api\/task\/steps\/appointment\/offer(\?[^)]*)?\)$/,
    'the backend fails on purpose: 424 offer_unavailable',
  );
  await preview.open();
  await preview.assign({ workflow: 'work-authorization', title: 'Work authorization' });
  // Chosen before the step is reached: the first request already gets the error.
  const backend = page.getByRole('region', { name: 'Partner backend' });
  await offerModes(backend).getByLabel('an error (HTTP 500)').check();
  await expect(offerModes(backend).getByLabel('an error (HTTP 500)')).toBeChecked();
  await reachAppointment(preview.frame, page);

  const tryAgain = preview.frame.getByRole('button', { name: 'Try again' });
  await expect(preview.frame.locator('.notice-error')).toContainText('We could not load the appointments just now.');
  await expect(tryAgain).toBeVisible();
  await expect(preview.frame.getByRole('radio')).toHaveCount(0);

  await offerModes(backend).getByLabel('too slow (no answer within OFFER_TIMEOUT_MS)').check();
  await tryAgain.click();
  await expect(preview.frame.locator('.notice-error')).toContainText('We could not load the appointments just now.', { timeout: 10_000 });

  await offerModes(backend).getByLabel('offers (the step’s sample)').check();
  await expect(offerModes(backend).getByLabel('offers (the step’s sample)')).toBeChecked();
  await tryAgain.click();
  await preview.frame.getByRole('radio').first().check();
  await preview.frame.getByRole('button', { name: 'Continue' }).click();
  await expect(preview.frame.getByRole('heading', { name: 'We are verifying your documents' })).toBeVisible();
  await expect(backend.getByRole('list', { name: 'Offer requests, newest first' })).toContainText('answered with an error (HTTP 500)');
});

test('no slots: the worker is told so and goes back to change the postcode, which loads a new offer', async ({ preview, page }) => {
  await preview.open();
  await preview.assign({ workflow: 'work-authorization', title: 'Work authorization' });
  const backend = page.getByRole('region', { name: 'Partner backend' });
  await offerModes(backend).getByLabel('none (nothing to choose)').check();
  await expect(offerModes(backend).getByLabel('none (nothing to choose)')).toBeChecked();
  await reachAppointment(preview.frame, page);

  await expect(preview.frame.getByText('There are no appointments near this postcode at the moment.')).toBeVisible();
  await offerModes(backend).getByLabel('offers (the step’s sample)').check();
  await expect(offerModes(backend).getByLabel('offers (the step’s sample)')).toBeChecked();
  await preview.frame.getByRole('button', { name: 'Change my postcode' }).click();
  await expect(preview.frame.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();
  await preview.frame.getByRole('textbox', { name: 'Postcode' }).fill('SW1A 1AA');
  await preview.frame.getByRole('button', { name: 'Continue' }).click();
  await expect(preview.frame.getByRole('radio', { name: /Verification centre, SW1A 1AA/ })).toHaveCount(2);
});
