import { expect, test } from '../portal-fixtures';
import { acknowledgePolicy, answerQuiz, beginTraining, wrongAnswers } from '../task-steps';

test.describe('on a 375×667 phone, inside the portal', () => {
  test.use({ viewport: { width: 375, height: 667 }, hasTouch: true });

  test('a failed quiz attempt is announced, takes the focus and is in view without scrolling', async ({ portal }) => {
    await portal.open();
    const { frame } = portal;
    await beginTraining(frame);
    await acknowledgePolicy(frame);
    await answerQuiz(frame, wrongAnswers);

    const result = frame.getByRole('alert').filter({ hasText: 'You answered 0 of 5 correctly; 4 are needed.' });
    await expect(result).toBeVisible();
    await expect(result).toBeFocused();
    // In the visible part of the portal's page, where the worker's eyes are: no scrolling needed to find it.
    await expect(result).toBeInViewport();
    await expect(frame.getByText('Attempt 2 of 3.')).toBeVisible();
    await portal.checkAccessibility('quiz failed on a phone');
  });
});

test('opening the task leaves the focus where the portal had it; after a step, focus moves to the new heading', async ({
  portal,
  page,
}) => {
  // The app is held back while the prerendered step is on screen. Playwright's own look at the frame runs with a
  // user gesture, so by the time the app starts the browser records this frame as activated although nobody
  // touched it: the page must not take that for the worker's input.
  let releaseApp!: () => void;
  const appHeld = new Promise<void>((resolve) => (releaseApp = resolve));
  await page.route(/\/assets\/app-root-[^/]*\.js$/, async (route) => {
    await appHeld;
    await route.continue();
  });
  const opened = portal.open();
  const { frame } = portal;
  await expect(frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  expect(await frame.locator('body').evaluate(() => navigator.userActivation.hasBeenActive)).toBe(true);
  releaseApp();
  await opened;
  // The session has answered (the footer says where updates go), so the step screen is live.
  await expect(frame.getByRole('contentinfo')).toContainText('Emulator mode');
  // An iframe that focuses itself on load takes the keyboard away from the portal around it.
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');
  await expect(frame.getByRole('heading', { name: 'Workplace safety training' })).not.toBeFocused();

  await beginTraining(frame);
  await expect(frame.getByRole('heading', { name: 'Read the safety policy' })).toBeFocused();
});

test('the welcome screen lists as many steps as the progress counts', async ({ portal }) => {
  await portal.open();
  const { frame } = portal;
  await expect(frame.getByText('Step 1 of 4')).toBeVisible();
  await expect(frame.getByText('The training has 4 steps:')).toBeVisible();
  await expect(frame.getByRole('list').getByRole('listitem')).toHaveCount(4);
});
