import type { Page } from '@playwright/test';
import { expect, test } from '../portal-fixtures';

/** The task page's frame (127.0.0.1) inside the test portal. */
function taskFrame(page: Page) {
  const frame = page.frames().find((candidate) => candidate.url().startsWith('http://127.0.0.1'));
  if (!frame) throw new Error('no task page frame');
  return frame;
}

interface FirstScreenWatch {
  __parsedHeading?: Element;
  __removedFromRoot?: number;
}

test('the first step comes in the HTML and the app hydrates it: the same nodes, never replaced', async ({ portal, page }) => {
  // At document start, before any script of the page: the heading the HTML parser inserts, and every element
  // removed from #root afterwards (a failed hydration, or a fresh render, replaces the prerendered nodes).
  await page.addInitScript(() => {
    if (location.hostname !== '127.0.0.1') return;
    const watch = window as unknown as FirstScreenWatch;
    watch.__removedFromRoot = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof HTMLHeadingElement && !watch.__parsedHeading) watch.__parsedHeading = node;
        }
        if (record.target instanceof Element && record.target.closest('#root')) {
          watch.__removedFromRoot! += [...record.removedNodes].filter((node) => node instanceof Element).length;
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  // The step's screens arrive well after the session's answer: hydrating while they were still on their way, the
  // step's boundary would get that answer before it had hydrated, and React would render it anew. Held until the
  // answer has come, then a while more: a fixed delay alone would not be "after" on a machine slow to answer.
  const sessionAnswered = page.waitForResponse('**/api/session');
  await page.route('**/assets/safety-training-*.js', async (route) => {
    await sessionAnswered;
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  const stylesheets: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith('http://127.0.0.1') && request.resourceType() === 'stylesheet') stylesheets.push(request.url());
  });
  await portal.open();
  await expect(portal.frame.getByRole('heading', { name: 'Workplace safety training' })).toBeVisible();
  // The session has answered once the footer says where updates go.
  await expect(portal.frame.getByRole('contentinfo')).toContainText('Emulator mode');
  // Its styles came in the HTML, and apply (a CSP that refused them would leave the button unstyled); none is fetched.
  await expect(portal.frame.getByRole('button', { name: 'Begin the training' })).toHaveCSS('border-radius', /^[1-9]/);
  expect(stylesheets).toEqual([]);
  const seen = await taskFrame(page).evaluate(() => {
    const watch = window as unknown as FirstScreenWatch;
    return { sameHeading: watch.__parsedHeading === document.querySelector('h1'), removed: watch.__removedFromRoot };
  });
  expect(seen).toEqual({ sameHeading: true, removed: 0 });
  await portal.checkAccessibility('prerendered welcome, hydrated');
});

test('a step submitted before the session has answered is saved once it has', async ({ portal, page }) => {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/session', async (route) => {
    await released;
    await route.continue();
  });
  await portal.open();
  const begin = portal.frame.getByRole('button', { name: 'Begin the training' });
  await expect(begin).toBeVisible();
  // Hydrated: React has attached its props (and so the click handler) to the prerendered button. A click before that
  // lands on plain HTML, as on any server-rendered page.
  await expect.poll(() => begin.evaluate((button) => Object.keys(button).some((key) => key.startsWith('__reactProps')))).toBe(true);
  await begin.click();
  await expect(portal.frame.getByRole('button', { name: 'Saving…' })).toBeVisible();
  release();
  await expect(portal.frame.getByRole('heading', { name: 'Read the safety policy' })).toBeVisible();
  await expect.poll(async () => (await portal.appliedUpdates()).map(([status]) => status)).toContain('inProgress');
});
