import type { Page } from '@playwright/test';
import { expect, signAndFinish, test, type PreviewPortal } from '../preview-fixtures';
import { acknowledgePolicy, answerQuiz, beginTraining, correctAnswers } from '../task-steps';

/** The admin section's sentence about the review: what the admin can do now. */
function adminCopy(preview: PreviewPortal) {
  return preview.panel.getByRole('region', { name: 'Admin (back office)' }).locator('p.pv-muted');
}

async function completeTraining(preview: PreviewPortal, page: Page): Promise<void> {
  await beginTraining(preview.frame);
  await acknowledgePolicy(preview.frame);
  await answerQuiz(preview.frame, correctAnswers);
  await signAndFinish(preview.frame, page);
}

test('with review required, the completed task awaits the admin, who approves it', async ({ preview, page }) => {
  await preview.open();
  await preview.assign({ title: 'Reviewed training', requireReview: true });
  await expect(preview.review).toHaveText('Required after completion');
  await completeTraining(preview, page);
  await expect(preview.status).toHaveText('Completed');
  await expect(preview.review).toHaveText('Awaiting admin review');
  await expect(adminCopy(preview)).toHaveText('The worker completed the task: approve or reject it.');
  await preview.checkAccessibility('review pending');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(preview.review).toHaveText('Approved');
  // The admin's copy follows the emulator's state: no sentence from before the decision stays.
  await expect(adminCopy(preview)).toHaveText(/^Approved at \d\d:\d\d:\d\d\. Nothing is left to review/);
  await expect(preview.panel.getByTestId('audit-trail')).toContainText('Admin approved the task');
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
});

test('with review required, a rejected task is restarted by the worker and awaits review again', async ({ preview, page }) => {
  await preview.open();
  await preview.assign({ title: 'Rejected training', requireReview: true });
  await completeTraining(preview, page);
  await expect(preview.review).toHaveText('Awaiting admin review');
  await page.getByRole('button', { name: 'Reject' }).click();
  await expect(preview.review).toHaveText('Rejected');
  await expect(adminCopy(preview)).toHaveText(/^Rejected at \d\d:\d\d:\d\d\. The worker is expected to start the task again/);

  // The worker opens the task again and starts over: `ready` clears the earlier review (docs/platform.md#statuses-and-transitions and docs/platform.md#the-update-endpoint).
  await page.getByRole('button', { name: 'Open this task again' }).click();
  await preview.frame.getByRole('button', { name: 'Start again' }).click();
  await preview.frame.getByRole('button', { name: 'Yes, start again' }).click();
  await expect(preview.frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  await expect(preview.status).toHaveText('Ready');
  await expect(preview.review).toHaveText('Required after completion');
  await expect(adminCopy(preview)).toHaveText('Approve and reject apply once the worker completed the task.');
  await expect(preview.panel.getByTestId('latest-label')).toHaveText('Restarted · attempt 2');

  await completeTraining(preview, page);
  await expect(preview.review).toHaveText('Awaiting admin review');
  await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
});

test('an admin reset lets the worker restart the task with the same parameters', async ({ preview, page }) => {
  await preview.open();
  await preview.assign({ title: 'Reset training' });
  await completeTraining(preview, page);
  const src = await page.evaluate(() => document.querySelector('iframe')?.getAttribute('src') ?? null);
  expect(src).toBeNull();
  await expect(preview.status).toHaveText('Completed');

  await page.getByRole('button', { name: 'Reset task' }).click();
  await expect(preview.status).toHaveText('Ready');
  await expect(preview.panel.getByTestId('audit-trail')).toContainText('Admin reset the task');
  // The reset task is back in the worker's hands: the portal opens it again with the same launch URL.
  await expect(preview.frame.getByRole('heading', { name: 'You completed this task' })).toBeVisible();
  const launchUrl = (await preview.iframe.getAttribute('src'))!;
  await preview.frame.getByRole('button', { name: 'Start again' }).click();
  await preview.frame.getByRole('button', { name: 'Yes, start again' }).click();
  await completeTraining(preview, page);
  await expect(preview.status).toHaveText('Completed');
  await expect(preview.panel.getByTestId('latest-label')).toHaveText('Completed');
  await page.getByRole('button', { name: 'Open this task again' }).click();
  expect(await preview.iframe.getAttribute('src')).toBe(launchUrl);
});
