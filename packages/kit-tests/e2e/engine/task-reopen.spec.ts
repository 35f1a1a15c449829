import type { Page } from '@playwright/test';
import { expect, test, type PortalHost } from '../portal-fixtures';
import { taskApi } from '../task-api';
import { acknowledgePolicy, answerQuiz, beginTraining, correctAnswers, sign } from '../task-steps';

/** Every answer of the task page's server that was a 409 (a conflict the worker's path should never meet). */
function watchConflicts(page: Page): string[] {
  const conflicts: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 409) conflicts.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  return conflicts;
}

/** The completion time as the page should write it: formatted in the browser, in the page's language. */
async function completedOnText(portal: PortalHost, iso: string): Promise<string> {
  return portal.frame
    .locator('html')
    .evaluate(
      (html, at) =>
        new Intl.DateTimeFormat(html.getAttribute('lang') ?? undefined, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(at)),
      iso,
    );
}

test('reopening a completed task says when it was completed and leads with Start again, which runs it again', async ({
  portal,
  page,
  baseURL,
}) => {
  const conflicts = watchConflicts(page);
  await portal.open();
  const { frame } = portal;
  await beginTraining(frame);
  await acknowledgePolicy(frame);
  await answerQuiz(frame, correctAnswers);
  await sign(frame, 'Ana López');
  await expect.poll(async () => (await portal.emulatorTask()).status).toBe('completed');

  // Sent back (an admin reset, a rejected review: the platform tells the partner nothing), the worker opens it again.
  await page.reload();
  await expect(frame.getByRole('heading', { name: 'You completed this task' })).toBeVisible();
  const completedAt = (await taskApi(baseURL!, portal.assignment).view()).history.findLast((entry) => entry.kind === 'completed')?.at;
  expect(completedAt).toBeDefined();
  await expect(frame.getByText(`Completed on ${await completedOnText(portal, completedAt!)}.`)).toBeVisible();
  const startAgain = frame.getByRole('button', { name: 'Start again' });
  await expect(startAgain).toHaveClass(/button-primary/);
  await expect(frame.getByRole('button', { name: 'Keep it as it is' })).toBeVisible();
  await expect(frame.getByText('You can now continue in the portal')).toHaveCount(0);
  await portal.checkAccessibility('reopened done');

  await startAgain.click();
  await frame.getByRole('button', { name: 'Yes, start again' }).click();
  await expect(frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  // docs/platform.md#the-update-endpoint: the new attempt's `ready` reaches the platform, which clears an earlier review.
  await expect.poll(async () => (await portal.emulatorTask()).status).toBe('ready');
  expect((await portal.appliedUpdates()).map(([status]) => status).slice(-2)).toEqual(['completed', 'ready']);
  await beginTraining(frame);
  expect(conflicts).toEqual([]);
});

test('a worker who keeps a reopened task as it is changes nothing and can still start again', async ({ portal, page, baseURL }) => {
  const conflicts = watchConflicts(page);
  await taskApi(baseURL!, portal.assignment).completeTraining();
  await expect.poll(async () => (await portal.emulatorTask()).status).toBe('completed');
  const sent = (await portal.appliedUpdates()).length;

  await portal.open();
  const { frame } = portal;
  await frame.getByRole('button', { name: 'Keep it as it is' }).click();
  await expect(frame.getByText('Nothing was changed: the task stays completed.')).toBeFocused();
  await expect(frame.getByRole('button', { name: 'Start again' })).toHaveClass(/button-link/);
  await portal.checkAccessibility('reopened done, kept');
  expect(await portal.appliedUpdates()).toHaveLength(sent);
  expect((await portal.emulatorTask()).status).toBe('completed');
  expect(conflicts).toEqual([]);
});

test.describe('in Spanish', () => {
  test.use({ locale: 'es-ES' });
  test('a reopened completed task offers to start again', async ({ portal, baseURL }) => {
    await taskApi(baseURL!, portal.assignment).completeTraining();
    await portal.open();
    const { frame } = portal;
    await expect(frame.getByRole('heading', { name: 'Ya completaste esta tarea' })).toBeVisible();
    await expect(frame.getByText(/^Completada el /)).toBeVisible();
    await expect(frame.getByRole('button', { name: 'Empezar de nuevo' })).toHaveClass(/button-primary/);
    await expect(frame.getByRole('button', { name: 'Dejarla como está' })).toBeVisible();
    await portal.checkAccessibility('reopened done in Spanish');
    await frame.getByRole('button', { name: 'Empezar de nuevo' }).click();
    await frame.getByRole('button', { name: 'Sí, empezar de nuevo' }).click();
    await expect(frame.getByRole('heading', { name: 'Formación en seguridad laboral' })).toBeVisible();
  });
});

test('a completed task shows no step to click while the session has not answered, only the opening screen', async ({
  portal,
  page,
  baseURL,
}) => {
  const conflicts = watchConflicts(page);
  const stepRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/task/steps/')) stepRequests.push(request.url());
  });
  await taskApi(baseURL!, portal.assignment).completeTraining();
  // A slow network: the session's answer is held. The server read the task's state for the link and sent the opening
  // screen (docs/architecture.md#how-a-link-is-answered), not a new task's first step that a worker could press.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/session', async (route) => {
    await released;
    await route.continue();
  });
  await portal.open();
  await expect(portal.frame.getByRole('status')).toHaveText('Opening your task…');
  await expect(portal.frame.locator('html')).toHaveAttribute('data-interactive', '');
  await expect(portal.frame.getByRole('button')).toHaveCount(0);
  await expect(portal.frame.getByText(/Step \d of/)).toHaveCount(0);
  release();
  await expect(portal.frame.getByRole('heading', { name: 'You completed this task' })).toBeVisible();
  await expect(portal.frame.getByRole('button', { name: 'Start again' })).toBeVisible();
  expect(stepRequests).toEqual([]);
  expect(conflicts).toEqual([]);
});
