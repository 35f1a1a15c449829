import { expect, test } from '../portal-fixtures';
import { acknowledgePolicy, answerQuiz, beginTraining, correctAnswers, sign, wrongAnswers } from '../task-steps';

test('reloading mid-way resumes at the saved step with the saved answers', async ({ portal, page }) => {
  await portal.open();
  await beginTraining(portal.frame);
  await acknowledgePolicy(portal.frame);
  await answerQuiz(portal.frame, wrongAnswers);
  await expect(portal.frame.getByText('Attempt 2 of 3.')).toBeVisible();

  await page.reload();
  await expect(portal.frame.getByRole('heading', { name: 'Safety quiz' })).toBeVisible();
  await expect(portal.frame.getByText('Step 3 of 4')).toBeVisible();
  await expect(portal.frame.getByText('Attempt 2 of 3.')).toBeVisible();
  await expect(
    portal.frame.getByRole('group', { name: 'How do you lift a heavy box?' }).getByLabel('Lift it quickly in one move'),
  ).toBeChecked();
  await answerQuiz(portal.frame, correctAnswers);
  await sign(portal.frame, 'Ana López');
});

test('failing the quiz on every attempt ends in error; starting again sends ready and runs again', async ({ portal }) => {
  await portal.open();
  const { frame } = portal;
  await beginTraining(frame);
  await acknowledgePolicy(frame);
  for (let attempt = 0; attempt < 3; attempt += 1) await answerQuiz(frame, wrongAnswers);
  await expect(frame.getByRole('heading', { name: 'This task could not be completed' })).toBeVisible();
  await expect(frame.getByText('A step of this task was not passed in 3 attempts.')).toBeVisible();
  await portal.checkAccessibility('failed');
  await expect.poll(async () => (await portal.appliedUpdates()).at(-1)).toEqual(['error', 'Failed · Quiz', 'danger']);
  const latest = (await portal.emulatorTask()).trail.at(-1)?.record?.partnerStatus?.details;
  expect(latest).toContain('did not pass the quiz in 3 attempts');

  await frame.getByRole('button', { name: 'Start again' }).click();
  await portal.checkAccessibility('restart confirmation');
  await frame.getByRole('button', { name: 'Yes, start again' }).click();
  // The button pressed is gone: the first step's heading takes the focus, where the keyboard continues.
  await expect(frame.getByRole('heading', { name: 'Workplace safety training' })).toBeFocused();
  await beginTraining(frame);
  await expect
    .poll(async () => (await portal.appliedUpdates()).slice(-2).map((update) => update[1]))
    .toEqual(['Restarted · attempt 2', 'Step 2 of 4 · Policy']);
});

test('restarting after completion sends ready, runs again and fires the end event again', async ({ portal }) => {
  await portal.open();
  const { frame } = portal;
  await beginTraining(frame);
  await acknowledgePolicy(frame);
  await answerQuiz(frame, correctAnswers);
  await sign(frame, 'Ana López');
  await expect.poll(async () => (await portal.emulatorTask()).status).toBe('completed');

  await frame.getByRole('button', { name: 'Start again' }).click();
  await frame.getByRole('button', { name: 'Yes, start again' }).click();
  await expect(frame.getByRole('heading', { name: 'Workplace safety training' })).toBeFocused();
  await expect.poll(async () => (await portal.emulatorTask()).status).toBe('ready');
  expect((await portal.appliedUpdates()).at(-1)).toEqual(['ready', 'Restarted · attempt 2', 'neutral']);

  await beginTraining(frame);
  await acknowledgePolicy(frame);
  await answerQuiz(frame, correctAnswers);
  await sign(frame, 'Ana López');
  await expect.poll(async () => (await portal.emulatorTask()).status).toBe('completed');
  await expect.poll(async () => (await portal.messages()).length).toBe(2);
});

test('a step keeps its place while the Back link’s code arrives, so a press lands where the worker aimed', async ({ portal, page }) => {
  // Holds Back's chunk until the step is measured: on a slow phone it comes in after the step is on screen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/back-link-*.js', async (route) => {
    await held;
    await route.continue();
  });
  await portal.open();
  await beginTraining(portal.frame);
  const box = portal.frame.getByLabel('I have read and understood the safety policy.');
  const before = await box.boundingBox();
  await expect(portal.frame.getByRole('button', { name: 'Back' })).toHaveCount(0);

  release();
  await expect(portal.frame.getByRole('button', { name: 'Back' })).toBeVisible();
  expect(await box.boundingBox()).toEqual(before);
  await acknowledgePolicy(portal.frame);
});
