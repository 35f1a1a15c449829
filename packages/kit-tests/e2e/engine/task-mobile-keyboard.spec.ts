import { expect, test } from '../portal-fixtures';

test.describe('on a 320 px phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, hasTouch: true });

  test('every screen fits without horizontal scrolling', async ({ portal, page }) => {
    await page.goto(portal.assignment.launchUrl);
    const fits = async () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await expect(page.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
    expect(await fits()).toBe(true);
    await expect(page.locator('html')).toHaveAttribute('data-interactive', '');
    await page.getByRole('button', { name: 'Begin the training' }).tap();
    await expect(page.getByRole('heading', { name: 'Read the safety policy' })).toBeVisible();
    expect(await fits()).toBe(true);
    await page.getByLabel('I have read and understood the safety policy.').tap();
    await page.getByRole('button', { name: 'Continue to the quiz' }).tap();
    await expect(page.getByRole('heading', { name: 'Safety quiz' })).toBeVisible();
    expect(await fits()).toBe(true);
  });
});

/** Position of the right option in each question, a, b or c (radio groups are driven with Space and arrows). */
const correctOptionIndex = [1, 0, 2, 0, 1];

test('the training can be done with the keyboard alone; focus follows each new screen', async ({ portal, page }) => {
  await page.goto(portal.assignment.launchUrl);
  const { keyboard } = page;
  await expect(page.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  // The first step may be the prerendered HTML, painted before the app has the page: a key pressed on its button then
  // reaches no handler (task-steps.ts, beginTraining, waits the same way).
  await expect(page.locator('html')).toHaveAttribute('data-interactive', '');
  await keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Begin the training' })).toBeFocused();
  await keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Read the safety policy' })).toBeFocused();
  await keyboard.press('Tab');
  await expect(page.getByLabel('I have read and understood the safety policy.')).toBeFocused();
  await keyboard.press('Space');
  await keyboard.press('Tab');
  await keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Safety quiz' })).toBeFocused();
  for (const index of correctOptionIndex) {
    await keyboard.press('Tab');
    await keyboard.press('Space');
    for (let move = 0; move < index; move += 1) await keyboard.press('ArrowDown');
  }
  await keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Submit answers' })).toBeFocused();
  await keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Sign the training record' })).toBeFocused();
  await keyboard.press('Tab');
  await expect(page.getByLabel('Your full name')).toBeFocused();
  await keyboard.type('Ana López');
  await keyboard.press('Tab');
  await keyboard.press('Space');
  await keyboard.press('Tab');
  await keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'All done' })).toBeFocused();
  await expect(page.getByText('This page is not inside the worker portal, so no portal was told.')).toBeVisible();
});
