import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from '../portal-fixtures';
import { taskApi } from '../task-api';

/**
 * docs/architecture.md#how-a-link-is-answered: a worker who opens the link of a task already under way or ended never
 * sees its first step, not even for a moment: the HTML holds the neutral opening screen, which is the first paint, and
 * the page goes from it to the worker's own screen. On a phone's profile (Lighthouse's Slow 4G, CPU ×4), where the
 * window between the first paint and the task's view is widest. The page is opened on its own, not in the portal's
 * frame: CDP throttles a tab, and the portal's frame is another site's process.
 */

interface PaintWatch {
  __inserted: Array<{ at: number; text: string }>;
  /** The observer's batches (one per commit, as a rule) in which elements left #root, and those in which some came. */
  __removedFromRoot: number[];
  __filledRoot: number[];
  __fcp?: number;
}

/** At document start, before any script of the page: every text put into the page, when, and the first paint. */
function watchPaints() {
  const watch = window as unknown as PaintWatch;
  watch.__inserted = [];
  watch.__removedFromRoot = [];
  watch.__filledRoot = [];
  let batch = 0;
  const note = (text: string | null | undefined) => {
    if (text && text.trim() !== '') watch.__inserted.push({ at: performance.now(), text: text.trim() });
  };
  new MutationObserver((records) => {
    batch += 1;
    for (const record of records) {
      const inRoot = record.target instanceof Element && record.target.closest('#root') !== null;
      if (inRoot && [...record.removedNodes].some((node) => node instanceof Element)) watch.__removedFromRoot.push(batch);
      if (inRoot && [...record.addedNodes].some((node) => node instanceof Element)) watch.__filledRoot.push(batch);
      if (record.type === 'characterData') note(record.target.textContent);
      for (const node of record.addedNodes) note(node.textContent);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') watch.__fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
}

/** Lighthouse's mobile profile, as packages/kit-tests/bench/page.ts applies it. */
async function throttle(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return cdp;
}

const returning = [
  { task: 'a completed task', prepare: 'completeTraining', screen: 'You completed this task' },
  { task: 'a task at its third step', prepare: 'reachQuiz', screen: 'Safety quiz' },
] as const;

for (const { task, prepare, screen } of returning) {
  test(`reopening ${task} never shows its first step: the opening screen is the first paint, then the worker's own`, async ({
    page,
    portal,
    baseURL,
  }) => {
    await taskApi(baseURL!, portal.assignment)[prepare]();
    await page.addInitScript(watchPaints);
    await throttle(page);
    const response = await page.goto(portal.assignment.launchUrl);
    const html = (await response!.text()).replace(/<style>[\s\S]*?<\/style>/g, '');
    expect(html).toContain('Opening your task…');
    expect(html).not.toMatch(/Step \d of|<button/);

    await expect(page.getByRole('heading', { name: screen })).toBeVisible({ timeout: 30_000 });
    const seen = await page.evaluate(() => {
      const watch = window as unknown as PaintWatch;
      return { inserted: watch.__inserted, removed: watch.__removedFromRoot, filled: watch.__filledRoot, fcp: watch.__fcp };
    });
    const texts = seen.inserted.map((entry) => entry.text);
    expect(texts.filter((text) => /Step 1 of|Workplace safety training|Begin the training/.test(text))).toEqual([]);
    // Whatever came between the opening screen and the worker's own was the worker's: its step, or none.
    const steps = texts.flatMap((text) => text.match(/Step \d of \d/g) ?? []);
    expect(new Set(steps)).toEqual(new Set(prepare === 'reachQuiz' ? ['Step 3 of 4'] : []));
    // The first paint came before anything but the HTML's opening screen was in the page.
    const ownScreenAt = seen.inserted.find((entry) => entry.text.includes(screen))?.at;
    expect(seen.fcp).toBeDefined();
    expect(ownScreenAt).toBeDefined();
    expect(seen.fcp!).toBeLessThan(ownScreenAt!);
    const beforePaint = seen.inserted.filter((entry) => entry.at <= seen.fcp!).map((entry) => entry.text);
    expect(beforePaint.some((text) => text.includes('Opening your task…'))).toBe(true);
    expect(beforePaint.filter((text) => text.includes(screen) || /Step \d of/.test(text))).toEqual([]);
    // Hydrated, not cleared and rendered anew (packages/page/src/app-root.tsx): whatever left #root was replaced in the
    // same commit, so #root was never blank.
    expect(seen.removed.filter((batch) => !seen.filled.includes(batch))).toEqual([]);
  });
}
