import { expect, signAndFinish, test } from '../preview-fixtures';
import { acknowledgePolicy, answerQuiz, beginTraining, correctAnswers } from '../task-steps';

/** The e2e server runs with DELIVERY_RETRY_BASE_MS=200 and DELIVERY_RETRY_MAX_MS=2000 (playwright.config.ts). */
test('an emulator outage during the flow shows retries with the next attempt time, then everything catches up in order', async ({
  preview,
  page,
}) => {
  await preview.open();
  await preview.assign({ title: 'Training through an outage' });
  await beginTraining(preview.frame);
  await expect(preview.panel.getByTestId('latest-label')).toHaveText('Step 2 of 4 · Policy');

  await page.getByLabel('Outage length (failed calls)').fill('1000');
  await page.getByRole('button', { name: 'Start outage (503 × 1000)' }).click();
  await expect(page.getByTestId('active-faults')).toHaveText('Waiting: 503 × 1000.');

  // The worker is never held up by the platform (docs/decisions/002-outbox-not-dual-writes.md): the steps save while updates wait.
  await acknowledgePolicy(preview.frame);
  await answerQuiz(preview.frame, correctAnswers);
  const retrying = preview.deliveries.locator('li[data-state="retrying"]');
  await expect(retrying.first()).toContainText(/failed · next attempt \d\d:\d\d:\d\d/);
  await expect(retrying.first()).toContainText('Last error: retryable: HTTP 503');
  await expect(preview.deliveries.getByTestId('delivery-summary')).toContainText('2 delivered · 2 waiting');
  await expect(preview.panel.getByTestId('latest-label')).toHaveText('Step 2 of 4 · Policy');
  await preview.checkAccessibility('delivery retrying');

  await page.getByRole('button', { name: 'End the faults' }).click();
  await expect(page.getByTestId('active-faults')).toHaveText('No fault waiting.');
  await expect(preview.deliveries.getByTestId('delivery-summary')).toHaveText('4 delivered · 0 waiting · 0 dead letters', {
    timeout: 15_000,
  });
  await expect(preview.deliveries.locator('li[data-state="delivered"]').nth(2)).toContainText(/after \d+ failed attempts?/);
  await expect(preview.panel.getByTestId('latest-label')).toHaveText('Step 4 of 4 · Signature');

  await signAndFinish(preview.frame, page);
  await expect(preview.deliveries.getByTestId('delivery-summary')).toHaveText('5 delivered · 0 waiting · 0 dead letters');
  // Nothing lost, nothing out of order: the trail holds every update once, applied, in the order it was sent.
  await expect
    .poll(async () =>
      (await preview.panel.getByTestId('audit-trail').locator('li').allInnerTexts())
        .reverse()
        .map((text) => text.split('\n')[0]?.replace(/^\S+ /, '')),
    )
    .toEqual([
      'Ready Opened',
      'In progress Step 2 of 4 · Policy',
      'In progress Step 3 of 4 · Quiz',
      'In progress Step 4 of 4 · Signature',
      // The status once: the label of the last update says it already.
      'Completed',
    ]);
  await expect(preview.panel.getByTestId('audit-trail')).not.toContainText('ignored');
});
