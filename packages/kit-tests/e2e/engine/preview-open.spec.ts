import { expect, test } from '../preview-fixtures';

/**
 * "Assign and open" sits at the foot of a long form (900 px down at 375 px wide), and the task view that replaces
 * it is a new screen: it must open at its top, with the task's frame in sight, not at the form's scroll position
 * with the frame above the viewport.
 */
for (const width of [375, 1280]) {
  test(`at ${width} px wide, “Assign and open” shows the task’s frame and moves the focus to the task’s heading`, async ({
    preview,
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await preview.open();
    await preview.assign({ title: `Opened at ${width} px` });
    await expect(preview.frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
    const frameTop = () => preview.iframe.evaluate((frame) => frame.getBoundingClientRect().top);
    await expect.poll(frameTop).toBeGreaterThanOrEqual(0);
    expect(await frameTop()).toBeLessThan(800 / 2);
    // The pressed button left with the form: the keyboard continues from the new screen's heading, not the body.
    await expect(page.getByRole('heading', { level: 1, name: `Opened at ${width} px` })).toBeFocused();
  });
}
