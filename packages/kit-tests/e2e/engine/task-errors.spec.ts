import { expect, test } from '../portal-fixtures';
import { beginTraining } from '../task-steps';

test('when the session cannot be opened, the page says so and a retry recovers', async ({ portal, page, consoleErrors }) => {
  // The first try and the two retries of a server fault (app-root.tsx) fail; the worker's retry succeeds.
  let failures = 3;
  await page.route('**/api/session', async (route) => {
    if (failures-- > 0)
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"unavailable","message":"down"}}' });
    return route.continue();
  });
  await portal.open();
  const { frame } = portal;
  await expect(frame.getByRole('heading', { name: 'We could not open your task' })).toBeVisible({ timeout: 20_000 });
  await expect(frame.getByRole('alert')).toContainText('Something went wrong on our side');
  await portal.checkAccessibility('load error');
  failures = 0;
  await frame.getByRole('button', { name: 'Try again' }).click();
  await expect(frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  // The browser logs each refused request; those are the point of this test.
  consoleErrors.expect(/status of 503 .*\/api\/session\)$/, 'the three refused session requests are what this test simulates');
});

test('a save that fails keeps the answers, says what to do, and is saved by itself once the server answers again', async ({
  portal,
  page,
  consoleErrors,
}) => {
  await portal.open();
  const { frame } = portal;
  await beginTraining(frame);
  // The browser believes it is online (no `online` event will come): the page's periodic retry has to find out.
  let offline = true;
  await page.route('**/api/task/steps/policy', (route) => (offline ? route.abort('internetdisconnected') : route.continue()));
  await frame.getByLabel('I have read and understood the safety policy.').check();
  await frame.getByRole('button', { name: 'Continue to the quiz' }).click();
  // Filtered: the step's Back link keeps an empty alert region of its own, ready for its own error.
  await expect(frame.getByRole('alert').filter({ hasText: 'Not saved yet' })).toContainText(
    'Not saved yet: we cannot reach the server right now',
  );
  await expect(frame.getByLabel('I have read and understood the safety policy.')).toBeChecked();
  await portal.checkAccessibility('save failed');
  offline = false;
  await expect(frame.getByRole('heading', { name: 'Safety quiz' })).toBeVisible({ timeout: 20_000 });
  await expect(frame.getByRole('alert').filter({ hasText: 'Not saved yet' })).toHaveCount(0);
  consoleErrors.expect(/ERR_INTERNET_DISCONNECTED .*\/api\/task\/steps\/policy\)$/, 'the test cuts the save off on purpose');
});

for (const [code, status, words] of [
  ['unknown_company', 403, 'This task is not set up for your company yet'],
  ['task_rejected', 410, 'This task is not known to the portal'],
] as const) {
  test(`a task the server will not run (${code}) gets a plain screen saying whom to tell, with no retry`, async ({
    portal,
    page,
    consoleErrors,
  }) => {
    // The server's side of these answers has its own tests (packages/kit-tests/integration/tenants.test.ts); here, the page's.
    await page.route('**/api/session', (route) =>
      route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ error: { code, message: 'refused' } }) }),
    );
    await portal.open();
    const { frame } = portal;
    await expect(frame.getByRole('heading', { name: 'This task cannot be done here' })).toBeVisible({ timeout: 20_000 });
    await expect(frame.getByRole('alert')).toContainText(words);
    await expect(frame.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await portal.checkAccessibility(`${code} screen`);
    consoleErrors.expect(new RegExp(`status of ${status} .*\\/api\\/session\\)$`), 'the refusal is what this test simulates');
  });
}

test('a task on a step this page has no screen for shows the error screen with what to do, not a blank page', async ({ portal, page }) => {
  // As after a deployment that renamed or removed a step while a worker was on it: the server names a current step
  // the workflow the page runs does not have.
  await page.route(/\/api\/(session|task)$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { task?: { currentStep: string | null }; currentStep?: string | null };
    if (body.task) body.task.currentStep = 'payroll';
    else body.currentStep = 'payroll';
    await route.fulfill({ response, json: body });
  });
  await portal.open();
  const { frame } = portal;
  await expect(frame.getByRole('heading', { name: 'This step cannot be shown' })).toBeVisible();
  await expect(frame.getByRole('main')).toContainText('Reload the page');
  await expect(frame.getByRole('main')).toContainText('“payroll”');
  await expect(frame.getByRole('button', { name: 'Reload the page' })).toBeVisible();
  await portal.checkAccessibility('unknown step');
});

test('when the step screens cannot be downloaded, the page says so and offers a reload instead of going blank', async ({
  portal,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/ERR_INTERNET_DISCONNECTED .*safety-training-/, 'the test cuts the download off on purpose');
  consoleErrors.expect(/Failed to fetch dynamically imported module/, 'React reports the error its boundary caught');
  // The workflow's chunk, which holds its first step's screen (docs/architecture.md#a-workflow-is-a-folder).
  await page.route('**/assets/safety-training-*.js', (route) => route.abort('internetdisconnected'));
  await portal.open();
  const { frame } = portal;
  await expect(frame.getByRole('alert').filter({ hasText: 'We could not reach the server. Check your connection' })).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Reload the page' })).toBeVisible();
  await expect(frame.getByText('Step 1 of 4')).toBeVisible();
  await portal.checkAccessibility('step screens not downloaded');
});
