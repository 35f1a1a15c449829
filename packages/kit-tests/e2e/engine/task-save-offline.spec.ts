import { expect, test } from '../portal-fixtures';
import { beginTraining } from '../task-steps';

const acknowledgement = 'I have read and understood the safety policy.';

test('offline during a save: a message within seconds, the answers kept, and the step saved when the connection returns', async ({
  portal,
  context,
  consoleErrors,
}) => {
  await portal.open();
  const { frame } = portal;
  await beginTraining(frame);
  await frame.getByLabel(acknowledgement).check();
  await context.setOffline(true);
  await frame.getByRole('button', { name: 'Continue to the quiz' }).click();

  // Not "Saving…" for ever: the page says what happened and what it will do, within seconds.
  const message = frame.getByRole('alert').filter({ hasText: 'Not saved yet' });
  await expect(message).toBeVisible({ timeout: 10_000 });
  await expect(message).toContainText('we will save it as soon as the connection is back');
  await expect(frame.getByRole('button', { name: 'Saving…' })).toHaveCount(0);
  // The step stays on screen with what the worker entered, and a retry button is offered.
  await expect(frame.getByRole('heading', { name: 'Read the safety policy' })).toBeVisible();
  await expect(frame.getByLabel(acknowledgement)).toBeChecked();
  await expect(frame.getByRole('button', { name: 'Try again now' })).toBeVisible();
  await portal.checkAccessibility('saving offline');

  // Back online: saved by itself, without a reload or a click.
  await context.setOffline(false);
  await expect(frame.getByRole('heading', { name: 'Safety quiz' })).toBeVisible({ timeout: 20_000 });
  await expect(message).toHaveCount(0);
  await expect.poll(async () => (await portal.appliedUpdates()).at(-1)?.[1], { timeout: 15_000 }).toBe('Step 3 of 4 · Quiz');
  consoleErrors.expect(/ERR_INTERNET_DISCONNECTED/, 'the browser is offline on purpose; each refused request is logged');
});

test('a save that gets no answer is given up after seconds, said so, and saved by the retry button', async ({ portal, page }) => {
  await portal.open();
  const { frame } = portal;
  await beginTraining(frame);
  // The connection stays open and nothing comes back (a captive portal, a stalled mobile network).
  let hanging = true;
  await page.route('**/api/task/steps/policy', (route) => (hanging ? undefined : route.continue()));
  await frame.getByLabel(acknowledgement).check();
  await frame.getByRole('button', { name: 'Continue to the quiz' }).click();
  await expect(frame.getByRole('alert').filter({ hasText: 'Not saved yet' })).toBeVisible({ timeout: 10_000 });
  await expect(frame.getByLabel(acknowledgement)).toBeChecked();

  hanging = false;
  await frame.getByRole('button', { name: 'Try again now' }).click();
  await expect(frame.getByRole('heading', { name: 'Safety quiz' })).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'Safety quiz' })).toBeFocused();
});

test.describe('in Spanish', () => {
  test.use({ locale: 'es-ES' });

  test('the unsaved step says so in Spanish, offers a retry, and is saved by itself', async ({ portal, page, consoleErrors }) => {
    await portal.open();
    const { frame } = portal;
    await expect(frame.getByText('La formación tiene 4 pasos:')).toBeVisible();
    let cut = true;
    await page.route('**/api/task/steps/welcome', (route) => (cut ? route.abort('internetdisconnected') : route.continue()));
    await frame.getByRole('button', { name: 'Empezar la formación' }).click();
    await expect(frame.getByRole('alert').filter({ hasText: 'Todavía no se guardó' })).toBeVisible({ timeout: 10_000 });
    await expect(frame.getByRole('button', { name: 'Reintentar ahora' })).toBeVisible();
    cut = false;
    await expect(frame.getByRole('heading', { name: 'Lee la política de seguridad' })).toBeVisible({ timeout: 20_000 });
    consoleErrors.expect(/ERR_INTERNET_DISCONNECTED .*\/api\/task\/steps\/welcome\)$/, 'the test cuts the save off on purpose');
  });
});
