import type { Browser, BrowserContextOptions, FrameLocator, Locator, Page } from '@playwright/test';
import { expect, test as base } from './portal-fixtures';
import { expectNoAxeViolations } from './accessibility';

/**
 * The preview portal as a partner developer uses it: opened at http://localhost:<port>/preview, framing the task page
 * at http://127.0.0.1:<port> (another origin, as in production). Console errors fail the test unless it declared them
 * (the automatic `consoleErrors` fixture of portal-fixtures.ts).
 */
interface AssignOptions {
  title?: string;
  /** Picked in the form's "Workflow" select: a workflow id the server offers. */
  workflow?: string;
  /** wxCompanyUuid of the assignment. */
  company?: string;
  requireReview?: boolean;
  hideTaskCompletedButton?: boolean;
}

export interface PreviewPortal {
  url: string;
  open(): Promise<void>;
  /** Fills "Assign a partner task" and opens the new task; returns its assigned task UUID from the address bar. */
  assign(options?: AssignOptions): Promise<string>;
  frame: FrameLocator;
  iframe: Locator;
  panel: Locator;
  deliveries: Locator;
  status: Locator;
  review: Locator;
  checkAccessibility(screen: string): Promise<void>;
}

export const test = base.extend<{ preview: PreviewPortal }>({
  preview: async ({ page, baseURL }, use) => {
    const url = `${baseURL!.replace('127.0.0.1', 'localhost')}/preview`;
    await use({
      url,
      open: async () => {
        await page.goto(url);
        await expect(page.getByRole('heading', { name: 'Your tasks', level: 1 })).toBeVisible();
      },
      assign: async (options = {}) => {
        if (options.title) await page.getByLabel('Title', { exact: true }).fill(options.title);
        if (options.workflow) await page.getByLabel('Workflow').selectOption(options.workflow);
        if (options.company) await page.getByLabel('Company (wxCompanyUuid)').fill(options.company);
        if (options.requireReview) await page.getByLabel('Require review by an admin').check();
        if (options.hideTaskCompletedButton) await page.getByLabel('Hide the “Task Completed” button').check();
        await page.getByRole('button', { name: 'Assign and open' }).click();
        await expect(page).toHaveURL(/\/preview\/tasks\/[0-9a-f-]{36}$/);
        return page.url().split('/').at(-1)!;
      },
      frame: page.frameLocator('iframe.pv-frame'),
      iframe: page.locator('iframe.pv-frame'),
      panel: page.getByRole('region', { name: 'Task information' }),
      deliveries: page.getByRole('region', { name: 'Delivery from our server' }),
      status: page.getByTestId('task-status'),
      review: page.getByTestId('review-state'),
      checkAccessibility: (screen) => expectNoAxeViolations(page, `the preview's ${screen} screen`),
    });
  },
});

/** The last step of the training inside the preview: the end event closes the iframe, so "All done" may not be seen. */
export async function signAndFinish(frame: FrameLocator, page: Page, name = 'Ana López'): Promise<void> {
  await expect(frame.getByRole('heading', { name: 'Sign the training record' })).toBeVisible();
  await frame.getByLabel('Your full name').fill(name);
  await frame.getByLabel('I confirm that I completed this training myself.').check();
  await frame.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(page.getByRole('heading', { name: 'Task finished: continuing to the next task' })).toBeVisible();
}

export { expect };

/** The task page alone, in a browser context of its own (no storage, no cache shared): a worker on another device. */
export async function openElsewhere(browser: Browser, taskUrl: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  const page = await context.newPage();
  await page.goto(taskUrl);
  return page;
}
