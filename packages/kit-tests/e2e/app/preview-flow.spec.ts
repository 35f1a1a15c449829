import { expect, signAndFinish, test } from '../preview-fixtures';
import { acknowledgePolicy, answerQuiz, beginTraining, correctAnswers, wrongAnswers } from '../task-steps';

const labels = ['Opened', 'Step 2 of 4 · Policy', 'Step 3 of 4 · Quiz', 'Step 4 of 4 · Signature', 'Completed'];

test('a developer assigns the task; the worker completes it in the cross-origin iframe; the panel shows completed and the trail; the end event closes the iframe', async ({
  preview,
  page,
}) => {
  await preview.open();
  await preview.checkAccessibility('task list');
  const uuid = await preview.assign();

  // docs/platform.md#partner-task-configuration / 2.5: the task page comes from another origin, with the four wx parameters appended.
  const src = new URL((await preview.iframe.getAttribute('src'))!);
  expect(src.hostname).toBe('127.0.0.1');
  expect(new URL(page.url()).hostname).toBe('localhost');
  expect(src.searchParams.get('wxAssignedTaskUuid')).toBe(uuid);
  for (const name of ['wxWorkerUuid', 'wxTaskFlowUuid', 'wxCompanyUuid']) expect(src.searchParams.get(name)).toMatch(/^[0-9a-f-]{36}$/);

  await beginTraining(preview.frame);
  // The panel follows changes live: the worker's progress appears without a reload.
  await expect(preview.status).toHaveText('In progress');
  await expect(preview.panel.getByTestId('latest-label')).toHaveText('Step 2 of 4 · Policy');
  await preview.checkAccessibility('task view');

  // A message that is not the end event is listed, and the iframe stays open.
  const taskFrame = page.frames().find((frame) => frame.url().includes('wxAssignedTaskUuid'))!;
  await taskFrame.evaluate(() => window.parent.postMessage({ type: 'resize', height: 900 }, '*'));
  await expect(page.getByRole('region', { name: 'Messages received' })).toContainText('not the end event');
  await expect(preview.iframe).toBeVisible();

  await acknowledgePolicy(preview.frame);
  await answerQuiz(preview.frame, correctAnswers);
  await signAndFinish(preview.frame, page);
  await expect(preview.iframe).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Messages received' })).toContainText('"partner-task-complete"');

  await expect(preview.status).toHaveText('Completed');
  await expect(preview.panel.getByTestId('latest-label')).toHaveText('Completed');
  await expect(preview.panel.getByRole('link', { name: /More information/ })).toHaveAttribute(
    'href',
    `https://partner.example.com/tasks/${uuid}`,
  );
  await expect
    .poll(async () => (await preview.panel.getByTestId('audit-trail').locator('.pv-label').allInnerTexts()).reverse())
    .toEqual(labels);
  await expect(preview.deliveries.getByTestId('delivery-summary')).toHaveText('5 delivered · 0 waiting · 0 dead letters');
  await preview.checkAccessibility('task finished');

  // Reopening shows the same task, with the same parameters: the page knows it is done, and offers to start again.
  await page.getByRole('button', { name: 'Open this task again' }).click();
  await expect(preview.frame.getByRole('heading', { name: 'You completed this task' })).toBeVisible();
  expect(await preview.iframe.getAttribute('src')).toBe(src.toString());
});

test('a quiz failed on every attempt ends on the training’s own failure screen, which offers to start again', async ({ preview }) => {
  await preview.open();
  await preview.assign();
  await beginTraining(preview.frame);
  await acknowledgePolicy(preview.frame);
  for (let attempt = 0; attempt < 3; attempt += 1) await answerQuiz(preview.frame, wrongAnswers);
  // The workflow's screen (src/workflows/safety-training/failed-screen.tsx), not the shell's "This task could not be completed".
  await expect(preview.frame.getByRole('heading', { name: 'This training could not be completed' })).toBeVisible();
  await expect(preview.frame.getByText('The safety quiz was not passed in 3 attempts.')).toBeVisible();
  await expect(preview.status).toHaveText('Error');
  await preview.checkAccessibility('training failed');
  await preview.frame.getByRole('button', { name: 'Start again' }).click();
  await preview.frame.getByRole('button', { name: 'Yes, start again' }).click();
  await expect(preview.frame.getByRole('heading', { name: 'Workplace safety training' })).toBeFocused();
});

test('the portal’s own “Task Completed” button completes the task, and is absent when the option hides it', async ({ preview, page }) => {
  await preview.open();
  await preview.assign({ title: 'Completed by the portal' });
  await expect(preview.frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  await page.getByRole('button', { name: 'Task Completed' }).click();
  await expect(page.getByRole('heading', { name: 'Marked as completed: continuing to the next task' })).toBeVisible();
  await expect(preview.status).toHaveText('Completed');
  await expect(preview.panel.getByTestId('audit-trail')).toContainText('Worker pressed the portal’s “Task Completed” button');

  await page.getByRole('link', { name: '← All tasks' }).click();
  await preview.assign({ title: 'Button hidden', hideTaskCompletedButton: true });
  await expect(preview.frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Task Completed' })).toHaveCount(0);
});

test('the launch form picks the company the task is assigned for', async ({ preview, page }) => {
  await preview.open();
  const company = '7c3e9a1b-5d2f-4e8a-9b6c-0d1e2f3a4b5c';
  await preview.assign({ company });
  await preview.panel.getByText('Assignment options and context').click();
  await expect(preview.panel.getByText(company, { exact: true })).toBeVisible();
  await expect(preview.frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the launch form takes the chosen workflow’s title and estimate until they are typed in', async ({ preview, page }) => {
  await preview.open();
  const title = page.getByLabel('Title', { exact: true });
  const estimate = page.getByLabel('Estimated completion time');
  await expect(title).toHaveValue('Workplace safety training');
  await expect(estimate).toHaveValue('10 minutes');
  const iframeUrl = page.getByLabel('Iframe URL');
  const preset = await iframeUrl.inputValue();
  await page.getByLabel('Workflow').selectOption('availability');
  // The choice is the URL's `workflow` variable, added to what the URL holds; the default workflow is the URL without it.
  await expect(iframeUrl).toHaveValue(
    new URL(`?${new URLSearchParams([...new URL(preset).searchParams, ['workflow', 'availability']])}`, preset).href,
  );
  await expect(title).toHaveValue('Availability and preferences');
  await expect(estimate).toHaveValue('3 minutes');
  await expect(page.getByText('3 steps, about 3 min.')).toBeVisible();
  await title.fill('Night shifts');
  await page.getByLabel('Workflow').selectOption('safety-training');
  await expect(iframeUrl).toHaveValue(preset);
  await expect(title).toHaveValue('Night shifts');
  await expect(estimate).toHaveValue('10 minutes');
});

test('“Clear list” hides the tasks listed, in this browser only, until they are shown again', async ({ preview, page }) => {
  await preview.open();
  await preview.assign({ title: 'Listed before the clear' });
  await page.getByRole('link', { name: '← All tasks' }).click();
  const listed = page.getByRole('link', { name: 'Listed before the clear' });
  await expect(listed).toBeVisible();
  await page.getByRole('button', { name: 'Clear list' }).click();
  await expect(listed).toHaveCount(0);
  await expect(page.getByTestId('cleared-tasks')).toContainText('hidden here; the emulator still holds');
  await preview.checkAccessibility('task list cleared');
  await page.reload();
  await expect(page.getByTestId('cleared-tasks')).toBeVisible();
  await expect(listed).toHaveCount(0);
  await page.getByRole('button', { name: /^Show (it|them) again$/ }).click();
  await expect(listed).toBeVisible();
});
