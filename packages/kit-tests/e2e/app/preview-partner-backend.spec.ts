import type { FrameLocator, Locator, Page } from '@playwright/test';
import { addPhotosAsCitizen } from '../appointment-steps';
import { expect, test } from '../preview-fixtures';

/**
 * background-check through the preview: the worker consents and waits on a step the partner's backend completes; the
 * "Partner backend" panel sends its result through the real partner API and lists the signed events the built-in
 * receiver verified with the `standardwebhooks` package (docs/development.md#the-partner-backend-panel).
 */
async function consentAndWait(frame: FrameLocator, page: Page): Promise<Locator> {
  await expect(frame.getByRole('heading', { name: 'Consent to a background check' })).toBeVisible();
  // The step may be the prerendered HTML: typed into before the app has the page, the answer would not be its state.
  await expect(frame.locator('html')).toHaveAttribute('data-interactive', '');
  await frame.getByLabel('Full name').fill('Ana López');
  await frame.getByLabel('I agree to the background check described above.').check();
  await frame.getByRole('button', { name: 'Give consent' }).click();
  await expect(frame.getByRole('heading', { name: 'Your background check is under way' })).toBeVisible();
  const backend = page.getByRole('region', { name: 'Partner backend' });
  await expect(backend.getByRole('heading', { name: 'The task waits on your backend: step “Check”' })).toBeVisible();
  await expect(eventLine(backend, 'task.step_saved')).toContainText('signature verified');
  return backend;
}

const eventLine = (backend: Locator, type: string) => backend.getByRole('listitem').filter({ hasText: type }).first();

test('the backend reports passed: the open page moves on within 5 s, the platform gets completed, every event verified', async ({
  preview,
  page,
}) => {
  await preview.open();
  await preview.assign({ workflow: 'background-check', title: 'Background check' });
  const backend = await consentAndWait(preview.frame, page);
  await expect(preview.panel.getByTestId('latest-label')).toHaveText('Step 2 of 2 · Check');
  await preview.checkAccessibility('partner backend panel with a step waiting');

  const pressed = Date.now();
  await backend.getByRole('button', { name: 'Report passed' }).click();
  // The page polls while it waits; once it sees the task completed it fires the end event, and the portal closes it.
  await expect(page.getByRole('heading', { name: 'Task finished: continuing to the next task' })).toBeVisible({ timeout: 5_000 });
  expect(Date.now() - pressed).toBeLessThan(5_000);
  await expect(page.getByRole('region', { name: 'Messages received' })).toContainText('"partner-task-complete"');

  await expect(preview.status).toHaveText('Completed');
  await expect
    .poll(async () => (await preview.panel.getByTestId('audit-trail').locator('.pv-label').allInnerTexts()).reverse())
    .toEqual(['Opened', 'Step 2 of 2 · Check', 'Completed']);
  await expect(eventLine(backend, 'task.completed')).toContainText('signature verified');
  await expect(backend.getByRole('listitem')).toHaveCount(3);
  // The task's updates are numbered on their own, though its events to the backend sit in the same outbox.
  await expect(preview.deliveries.getByTestId('delivery-summary')).toHaveText('3 delivered · 0 waiting · 0 dead letters');
  const updates = preview.deliveries.getByRole('list', { name: 'Updates, oldest first' });
  expect(await updates.getByText(/^Update \d+$/).allInnerTexts()).toEqual(['Update 1', 'Update 2', 'Update 3']);
  await expect(backend.getByText('signature not verified')).toHaveCount(0);
  await expect(backend.getByRole('heading', { name: /waits on your backend/ })).toHaveCount(0);
  // Each event's body is there to read, as the receiver got it.
  await eventLine(backend, 'task.completed').getByText('Body').click();
  await expect(eventLine(backend, 'task.completed').locator('pre')).toContainText('"status": "completed"');
  await preview.checkAccessibility('partner backend panel after the check');
});

test('the backend reports failed: the page shows the reason for the worker and what next, the platform gets the details', async ({
  preview,
  page,
}) => {
  await preview.open();
  await preview.assign({ workflow: 'background-check', title: 'Background check' });
  const backend = await consentAndWait(preview.frame, page);

  const pressed = Date.now();
  await backend.getByRole('button', { name: 'Report failed' }).click();
  await expect(preview.frame.getByRole('heading', { name: 'This task could not be completed' })).toBeVisible({ timeout: 5_000 });
  expect(Date.now() - pressed).toBeLessThan(5_000);
  // The result's workerMessage in the worker's language, then the shell's next step (the step names no failedNextStep);
  // the admin's details stay out.
  await expect(preview.frame.getByText('We could not confirm your identity.')).toBeVisible();
  await expect(preview.frame.getByText('You can start again from the beginning.')).toBeVisible();
  await expect(preview.frame.getByText('The identity document could not be verified.')).toHaveCount(0);
  await expect(preview.frame.getByRole('button', { name: 'Start again' })).toBeVisible();
  await preview.checkAccessibility("failure screen with the partner's reason");
  // No end event for an error: the portal keeps the task open for the worker to start again.
  await expect(preview.iframe).toBeVisible();
  await expect(preview.status).toHaveText('Error');
  await expect(preview.panel).toContainText('The identity document could not be verified.');
  await expect(eventLine(backend, 'task.failed')).toContainText('signature verified');
  await expect(backend.getByText('signature not verified')).toHaveCount(0);
});

test('the panel shows the photos a worker sent, as the partner API gives them: cleaned, with type, size and sha256', async ({
  preview,
  page,
}) => {
  await preview.open();
  await preview.assign({ workflow: 'work-authorization', title: 'Work authorization' });
  const { frame } = preview;
  await expect(frame.getByRole('heading', { name: 'Are you a citizen?' })).toBeVisible();
  await expect(frame.locator('html')).toHaveAttribute('data-interactive', '');
  const backend = page.getByRole('region', { name: 'Partner backend' });
  await expect(backend.getByText('None yet. A file appears here once the step that holds it is saved.')).toBeVisible();
  await addPhotosAsCitizen(frame);
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { name: 'Where do you live?' })).toBeVisible();

  const files = backend.getByRole('list', { name: "Files of the task's answers" });
  await expect(files.getByRole('listitem')).toHaveCount(2);
  for (const side of ['front', 'back']) {
    const item = files.getByRole('listitem').filter({ hasText: `photos · ${side}` });
    await expect(item).toContainText(/image\/jpeg, \d+ KB, sha256 [0-9a-f]{12}…/);
    // Drawn from the bytes the partner API streams (addPhotosAsCitizen sends 320 × 200 photos).
    const image = item.getByRole('img', { name: `photos · ${side}` });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(320);
  }
  // The event of the step describes the same files, never their bytes.
  const saved = backend.getByRole('listitem').filter({ hasText: 'task.step_saved' }).first();
  await saved.getByText('Body').click();
  await expect(saved.locator('pre')).toContainText('"contentType": "image/jpeg"');
  await preview.checkAccessibility("partner backend panel with the task's photos");
});
