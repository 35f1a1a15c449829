import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputField } from '@partner-task-kit/page/screens';

/** The system's Chromium where there is one (playwright.config.ts says why). */
const systemChromium = '/usr/bin/chromium';
const styles = readFileSync(join(import.meta.dirname, '../../page/src/ui/styles.css'), 'utf8');

/** A direct-deposit-like step: a bank's routing number (9 digits) and an account's suffix, both `short` fields. */
function depositStep(): string {
  const field = (id: string, label: string) =>
    createElement(InputField, { id, label, width: 'short', type: 'text', inputMode: 'numeric', defaultValue: '' });
  // Inside the page's frame (packages/page/src/ui/page-shell.tsx), whose padding a field's width must leave room for.
  const fields = renderToStaticMarkup(createElement('form', null, field('routing', 'Routing number'), field('suffix', 'Last digits')));
  return `<div class="shell"><main class="page">${fields}</main></div>`;
}

/** How far the field's text reaches past its box: 0 when it is all in view. */
async function overflow(page: Page, id: string, value: string): Promise<number> {
  await page.locator(`#${id}`).fill(value);
  return page.locator(`#${id}`).evaluate((input: HTMLInputElement) => {
    // Scrolled to the end, as after typing: what is cut shows as scrollWidth beyond clientWidth.
    input.scrollLeft = input.scrollWidth;
    return input.scrollWidth - input.clientWidth;
  });
}

describe('a short text field on a 375 px phone', () => {
  let browser: Browser | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    browser = await chromium.launch(existsSync(systemChromium) ? { executablePath: systemChromium, args: ['--no-sandbox'] } : {});
    page = await browser.newPage({ viewport: { width: 375, height: 667 }, hasTouch: true });
    await page.setContent(`<!doctype html><html lang="en"><head><style>${styles}</style></head><body>${depositStep()}</body></html>`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a whole 9-digit routing number', async () => {
    expect(await overflow(page!, 'routing', '021000021')).toBeLessThanOrEqual(0);
  });

  it('shows 12 characters, the widest value a short field is for, and stays within the phone', async () => {
    expect(await overflow(page!, 'suffix', '888888888888')).toBeLessThanOrEqual(0);
    // The widest postcode the work-authorization example takes: 10 letters, digits and spaces.
    expect(await overflow(page!, 'suffix', 'SW1A 1AA 0')).toBeLessThanOrEqual(0);
    expect(await page!.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('stays short: narrower than half the phone, so it still says a few characters are expected', async () => {
    const width = await page!.locator('#routing').evaluate((input) => input.getBoundingClientRect().width);
    expect(width).toBeLessThan(375 / 2);
  });
});
