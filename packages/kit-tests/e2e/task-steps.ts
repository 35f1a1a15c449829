import { expect, type FrameLocator, type Locator } from '@playwright/test';

/** The worker's moves through the safety training, as a person would make them. */
export type QuizAnswers = readonly (readonly [question: string, answer: string])[];

export const correctAnswers: QuizAnswers = [
  ['When must emergency exits be kept clear?', 'At all times'],
  ['You notice a spill on the floor. What do you do first?', 'Mark it off so nobody slips'],
  ['When should you check your protective equipment?', 'Before each use'],
  ['Which injuries must be reported?', 'Every injury, the same day'],
  ['How do you lift a heavy box?', 'Bend your knees, back straight'],
];

export const wrongAnswers: QuizAnswers = [
  ['When must emergency exits be kept clear?', 'Only during fire drills'],
  ['You notice a spill on the floor. What do you do first?', 'Finish your current task'],
  ['When should you check your protective equipment?', 'Once a month'],
  ['Which injuries must be reported?', 'Only injuries that need a doctor'],
  ['How do you lift a heavy box?', 'Lift it quickly in one move'],
];

export async function beginTraining(frame: FrameLocator): Promise<void> {
  await expect(frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  // The first step may be the prerendered HTML: its button takes clicks once the app has the page.
  await expect(frame.locator('html')).toHaveAttribute('data-interactive', '');
  await frame.getByRole('button', { name: 'Begin the training' }).click();
  await expect(frame.getByRole('heading', { name: 'Read the safety policy' })).toBeVisible();
}

export async function acknowledgePolicy(frame: FrameLocator): Promise<void> {
  await checkAsAPersonWould(frame.getByLabel('I have read and understood the safety policy.'));
  await frame.getByRole('button', { name: 'Continue to the quiz' }).click();
  await expect(frame.getByRole('heading', { name: 'Safety quiz' })).toBeVisible();
}

export async function answerQuiz(frame: FrameLocator, answers: QuizAnswers): Promise<void> {
  for (const [question, answer] of answers) {
    await checkAsAPersonWould(frame.getByRole('group', { name: question }).getByLabel(answer));
  }
  await frame.getByRole('button', { name: 'Submit answers' }).click();
}

export async function sign(frame: FrameLocator, name: string): Promise<void> {
  await expect(frame.getByRole('heading', { name: 'Sign the training record' })).toBeVisible();
  await frame.getByLabel('Your full name').fill(name);
  await frame.getByLabel('I confirm that I completed this training myself.').check();
  await frame.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(frame.getByRole('heading', { name: 'All done' })).toBeVisible();
}

/**
 * Presses a box or a radio, and presses it again if the press did not take, as a person who sees the box still empty
 * does. Seen in CI on the preview, whose panels beside the frame re-render as updates arrive: Playwright scrolled the
 * preview page to reach a radio at the foot of the frame, and its press then missed it ("Clicking the checkbox did not
 * change its state"). The worker's own page keeps its place while code arrives (task-resume-restart.spec.ts).
 */
async function checkAsAPersonWould(target: Locator): Promise<void> {
  await expect(async () => {
    await target.check({ timeout: 5_000 });
  }).toPass({ timeout: 15_000 });
}
