import type { Page } from '@playwright/test';
import { localDay } from '../../../../src/workflows/availability/definition.start-date';
import { expect, test } from '../preview-fixtures';

const DAY_MS = 86_400_000;
/**
 * The workflow launched: the example, or a copy of its folder under another id, which an app made by the packed
 * scaffolder runs in its place (packages/kit-tests/packed/workflow-folder-copy.test.ts, through the packed config).
 */
const launched = () => (test.info().config.metadata as { availabilityWorkflow?: string }).availabilityWorkflow ?? 'availability';
/** Days on the browser's calendar: it runs on this machine, in its time zone. */
const day = (offset: number) => localDay(new Date(Date.now() + offset * DAY_MS));

/** The task page inside the preview's iframe fits its width: nothing to scroll sideways on a phone. */
async function taskPageFits(page: Page): Promise<boolean> {
  const frame = page.frames().find((each) => each.url().includes('wxAssignedTaskUuid'));
  if (!frame) throw new Error('no task page frame');
  return frame.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test.describe('on a 375 × 667 phone', () => {
  test.use({ viewport: { width: 375, height: 667 }, hasTouch: true });

  test('a developer launches the availability workflow; the worker fixes a refused date, answers the questions nights and weekends raise, and finishes', async ({
    preview,
    page,
  }) => {
    const workflowId = launched();
    await preview.open();
    await page.getByLabel('Workflow').selectOption(workflowId);
    // The choice is the flow designer's variable on the iframe URL (docs/platform.md#partner-task-configuration): the URL shown is the URL launched.
    await expect(page.getByLabel('Iframe URL')).toHaveValue(new RegExp(`/\\?workflow=${workflowId}$`));
    await preview.checkAccessibility('task list with a workflow chosen');
    await preview.assign({ title: 'Availability and preferences' });
    expect(new URL((await preview.iframe.getAttribute('src'))!).searchParams.get('workflow')).toBe(workflowId);
    const { frame } = preview;

    // Step 1: a date is required, and may not be in the past; focus goes to the field in error.
    await expect(frame.getByRole('heading', { name: 'When can you start?' })).toBeVisible();
    await expect(frame.getByText('Step 1 of 3')).toBeVisible();
    expect(await taskPageFits(page)).toBe(true);
    const date = frame.getByLabel('First day you can work');
    // The first step came in the HTML, without bounds; hydrated, the picker runs from the worker's today to a year on.
    await expect(date).toHaveAttribute('min', day(0));
    await expect(date).toHaveAttribute('max', /^\d{4}-\d{2}-\d{2}$/);
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByText('Enter the first day you can work.')).toBeVisible();
    await expect(date).toBeFocused();
    await expect(date).toHaveAttribute('aria-invalid', 'true');
    await date.fill(day(-1));
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByText('The date cannot be in the past. Choose today or a later day.')).toBeVisible();
    await expect(date).toBeFocused();
    await preview.checkAccessibility('start date refused');
    await date.fill(day(7));
    await expect(frame.getByText('The date cannot be in the past.', { exact: false })).toHaveCount(0);
    await frame.getByRole('button', { name: 'Continue' }).click();

    // Step 2: the questions appear only with the shifts that raise them.
    await expect(frame.getByRole('heading', { name: 'Which shifts can you work?' })).toBeVisible();
    await expect(preview.panel.getByTestId('latest-label')).toHaveText('Step 2 of 3 · Shifts');
    const transport = frame.getByRole('group', { name: 'Do you have transport home after midnight?' });
    const weekends = frame.getByRole('group', { name: 'How many weekends a month can you work?' });
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByText('Choose at least one shift.')).toBeVisible();
    await expect(frame.getByLabel('Mornings (6:00 to 14:00)')).toBeFocused();
    await frame.getByLabel('Mornings (6:00 to 14:00)').check();
    await expect(transport).toHaveCount(0);
    await frame.getByLabel('Nights (22:00 to 6:00)').check();
    await expect(transport).toBeVisible();
    await frame.getByLabel('Weekends').check();
    await expect(weekends).toBeVisible();
    expect(await taskPageFits(page)).toBe(true);
    await frame.getByRole('button', { name: 'Continue' }).click();
    await expect(frame.getByText('Tell us whether you have transport home after midnight.')).toBeVisible();
    await expect(frame.getByText('Choose how many weekends a month you can work.')).toBeVisible();
    // Focus goes to the first question in error; its message is tied to the group.
    await expect(transport.getByLabel('Yes')).toBeFocused();
    await expect(transport).toHaveAccessibleDescription('Tell us whether you have transport home after midnight.');
    await preview.checkAccessibility('shifts with unanswered questions');
    await transport.getByLabel('No').check();
    await expect(weekends).toHaveAccessibleDescription('Choose how many weekends a month you can work.');
    await weekends.getByLabel('2 weekends').check();
    await frame.getByRole('button', { name: 'Continue' }).click();

    // Step 3: the hours are checked by the same schema as on the server.
    await expect(frame.getByRole('heading', { name: 'How many hours a week?' })).toBeVisible();
    const hours = frame.getByLabel('Most hours you can work in a week');
    await hours.fill('70');
    await frame.getByLabel('Anything else we should know? (optional)').fill('No Mondays, please.');
    await expect(frame.getByText('19 of 500 characters used.')).toBeVisible();
    await frame.getByRole('button', { name: 'Send my availability' }).click();
    await expect(frame.getByText('Enter a whole number of hours from 8 to 60.')).toBeVisible();
    await expect(hours).toBeFocused();
    await preview.checkAccessibility('hours refused');
    await hours.fill('30');
    await frame.getByRole('button', { name: 'Send my availability' }).click();

    // The last step completes the task: the end event closes the iframe, as the worker portal does.
    await expect(page.getByRole('heading', { name: 'Task finished: continuing to the next task' })).toBeVisible();
    await expect(preview.status).toHaveText('Completed');
    await expect
      .poll(async () => (await preview.panel.getByTestId('audit-trail').locator('.pv-label').allInnerTexts()).reverse())
      .toEqual(['Opened', 'Step 2 of 3 · Shifts', 'Step 3 of 3 · Hours', 'Completed']);
    await expect(preview.panel).toContainText('Availability complete: at most 30 hours a week; the worker added a note.');
    await preview.checkAccessibility('availability finished');
  });
});

test('a link naming a workflow the partner does not offer shows what happened and whom to tell, with nothing to retry', async ({
  preview,
  page,
  consoleErrors,
}) => {
  await preview.open();
  const url = page.getByLabel('Iframe URL');
  await url.fill(`${await url.inputValue()}?workflow=onboarding-v2`);
  // The preview says the server does not offer it, and launches it all the same: that is how to see this screen.
  await expect(page.getByLabel('Workflow')).toHaveValue('onboarding-v2');
  await expect(page.getByRole('option', { name: 'onboarding-v2 (not offered by this server)' })).toBeAttached();
  await preview.assign({ title: 'A link with a typo' });

  const { frame } = preview;
  await expect(frame.getByRole('heading', { name: 'This task link asks for something we do not offer' })).toBeVisible();
  await expect(frame.getByRole('alert')).toContainText(
    'The link of this task names the workflow “onboarding-v2”, which this partner does not offer',
  );
  await expect(frame.getByText('tell the person who assigned you this task, or your employer')).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'For partner developers' })).toBeVisible();
  await expect(frame.getByRole('button')).toHaveCount(0);
  await preview.checkAccessibility('unknown workflow');
  // The delivery view's own session is refused the same way: no task exists to hold updates.
  await expect(preview.deliveries).toContainText('This task link names the workflow "onboarding-v2"');
  consoleErrors.expect(
    /status of 400 .*\/api\/session\)$/,
    'the server refuses the session of a link naming an unknown workflow (both the task page and the delivery view ask)',
  );
});
