import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../portal-fixtures';
import { acknowledgePolicy, answerQuiz, beginTraining, correctAnswers, sign, wrongAnswers } from '../task-steps';

const expectedUpdates = [
  ['ready', 'Opened', 'neutral'],
  // One update for the first click: the step's own inProgress is the attempt's start (docs/platform.md#statuses-and-transitions).
  ['inProgress', 'Step 2 of 4 · Policy', 'neutral'],
  ['inProgress', 'Step 3 of 4 · Quiz', 'neutral'],
  ['inProgress', 'Step 3 of 4 · Quiz retry', 'warning'],
  ['inProgress', 'Step 4 of 4 · Signature', 'neutral'],
  ['completed', 'Completed', 'success'],
];

test('a worker completes the training inside the portal iframe; the platform gets every update in order', async ({ portal }) => {
  await portal.open();
  const { frame } = portal;
  await expect(frame.getByText('about 10 minutes')).toBeVisible();
  await expect(frame.getByText('Step 1 of 4')).toBeVisible();
  await portal.checkAccessibility('welcome');
  await beginTraining(frame);
  await expect(frame.getByText('Step 2 of 4')).toBeVisible();
  await portal.checkAccessibility('policy');

  // The checkbox is required: the error says what to do, and nothing is sent.
  await frame.getByRole('button', { name: 'Continue to the quiz' }).click();
  await expect(frame.getByText('Tick the box to confirm you have read the policy.')).toBeVisible();
  await portal.checkAccessibility('policy with an error');
  await acknowledgePolicy(frame);
  await portal.checkAccessibility('quiz');

  // Nothing answered: one message counts the questions left, each group points at it, focus goes to the first.
  await frame.getByRole('button', { name: 'Submit answers' }).click();
  await expect(frame.getByText('5 questions have no answer yet.')).toBeVisible();
  await expect(frame.getByRole('group', { name: 'When must emergency exits be kept clear?' })).toHaveAccessibleDescription(
    '5 questions have no answer yet.',
  );
  await expect(frame.getByRole('group', { name: 'When must emergency exits be kept clear?' }).getByRole('radio').first()).toBeFocused();
  await portal.checkAccessibility('quiz with unanswered questions');

  await answerQuiz(frame, wrongAnswers.slice(0, 2).concat(correctAnswers.slice(2)));
  await expect(frame.getByRole('alert').filter({ hasText: 'You answered 3 of 5 correctly; 4 are needed.' })).toBeVisible();
  await expect(frame.getByText('Attempt 2 of 3.')).toBeVisible();
  await portal.checkAccessibility('quiz failed once');
  await answerQuiz(frame, correctAnswers);
  await portal.checkAccessibility('signature');

  // Signed with nothing filled in: each field says what is missing, read with its hint; focus goes to the name.
  await frame.getByRole('button', { name: 'Sign and finish' }).click();
  const name = frame.getByLabel('Your full name');
  await expect(name).toBeFocused();
  await expect(name).toHaveAccessibleDescription('Type your name as it appears on your ID. Type your full name (at least 2 characters).');
  await expect(frame.getByLabel('I confirm that I completed this training myself.')).toHaveAccessibleDescription(
    'Tick the box to confirm.',
  );
  await portal.checkAccessibility('signature with errors');
  await sign(frame, 'Ana López');
  // Sent, not received: the portal acknowledges nothing (docs/platform.md#end-event: the end event's name and format are not shown), and
  // a wrongly named event is dropped without a word, so the page claims only what it did.
  await expect(frame.getByText('We sent the portal word that you finished.')).toBeVisible();
  await portal.checkAccessibility('done');

  // The end event reaches the parent, at its exact origin, once, after the completion was stored.
  await expect
    .poll(() => portal.messages())
    .toEqual([{ origin: 'http://127.0.0.1:' + new URL(portal.assignment.launchUrl).port, data: 'partner-task-complete' }]);

  // The relay delivers the outbox to the emulator: same order, statuses and labels (docs/platform.md#partner-task-update-record and docs/platform.md#statuses-and-transitions).
  await expect.poll(() => portal.appliedUpdates(), { timeout: 15_000 }).toEqual(expectedUpdates);
  const task = await portal.emulatorTask();
  expect(task.status).toBe('completed');
  const records = task.trail.map((entry) => entry.record!);
  expect(new Set(records.map((record) => record.partnerId)).size).toBe(1);
  expect(records.map((record) => Date.parse(record.sentAt))).toEqual(
    records.map((record) => Date.parse(record.sentAt)).sort((a, b) => a - b),
  );
  expect(records.at(-1)?.partnerStatus?.details).toContain('Ana López');
});

test('no secret reaches the browser: not in the built bundle, not in any API answer', async ({ portal }) => {
  await portal.open();
  await beginTraining(portal.frame);
  await acknowledgePolicy(portal.frame);
  await answerQuiz(portal.frame, wrongAnswers);
  await answerQuiz(portal.frame, correctAnswers);
  await sign(portal.frame, 'Ana López');
  const secrets = [
    'emulator-secret',
    'e2e-session-secret-0f3a9c7d51b24e68a1c0',
    'Emergency exits and their routes must stay clear at every moment',
  ];
  const bundle = readdirSync('build/fixture-app/assets').map((file) => readFileSync(join('build/fixture-app/assets', file), 'utf8'));
  for (const text of [...bundle, ...portal.apiBodies]) {
    for (const secret of secrets) expect(text).not.toContain(secret);
  }
  expect(portal.apiBodies.length).toBeGreaterThan(5);
});
