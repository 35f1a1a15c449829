import { join } from 'node:path';
import { expect, test } from '../preview-fixtures';
import { acknowledgePolicy, beginTraining } from '../task-steps';

/**
 * The README's walkthrough screenshots, at a phone's width (375 px) and a laptop's (1280 px): the preview portal and
 * the task page alone. `npm run docs:screenshots` writes them to docs/screenshots/; a plain run writes them to
 * test-results/ so every run still proves they can be taken.
 */
const widths = [375, 1280] as const;

test('screenshots of the preview portal and the task page at 375 and 1280 px', async ({ preview, page }, testInfo) => {
  const directory = testInfo.config.metadata.updateDocsScreenshots === true ? join('docs', 'screenshots') : testInfo.outputPath();
  const shot = (name: string) => page.screenshot({ path: join(directory, name), fullPage: true, animations: 'disabled' });

  await page.setViewportSize({ width: 1280, height: 900 });
  await preview.open();
  await shot('preview-tasks-1280.png');
  await preview.assign();
  await beginTraining(preview.frame);
  await acknowledgePolicy(preview.frame);
  await expect(preview.panel.getByTestId('latest-label')).toHaveText('Step 3 of 4 · Quiz');
  await expect(preview.deliveries.getByTestId('delivery-summary')).toHaveText('3 delivered · 0 waiting · 0 dead letters');
  const launchUrl = (await preview.iframe.getAttribute('src'))!;
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expect(preview.frame.getByRole('heading', { name: 'Safety quiz' })).toBeVisible();
    await shot(`preview-task-${width}.png`);
  }

  // The task page as the worker's phone shows it inside the portal's iframe, here opened on its own.
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.goto(launchUrl);
    await expect(page.getByRole('heading', { name: 'Safety quiz' })).toBeVisible();
    await shot(`task-page-${width}.png`);
  }
});
