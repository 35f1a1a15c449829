import type { BrowserContext, Frame, Page } from '@playwright/test';
import { percentile, round } from './bench-support';
import { observePageMetrics, readPageMetrics, type PageMetrics } from './page-metrics';

/**
 * packages/kit-tests/bench/page.ts's returning worker: a task already under way or ended, its link opened again in a
 * fresh context on the first visit's profile. The server answers it with the opening screen
 * (docs/architecture.md#how-a-link-is-answered), the first paint; LCP is the worker's own screen once it is in.
 */
export interface ReturningMetrics extends PageMetrics {
  /** First contentful paint: the opening screen the HTML holds. */
  firstPaintMs: number;
}

export interface Reopening {
  context: BrowserContext;
  page: Page;
  /** The preview portal's page of the task, which frames its link as on the first visit. */
  url: string;
  taskOrigin: string;
  previewTaskFrame: (page: Page) => Promise<Frame>;
}

export async function reopenOnce({ context, page, url, taskOrigin, previewTaskFrame }: Reopening): Promise<ReturningMetrics> {
  try {
    // No step button to wait for: the metrics' interactive time stays unset.
    await context.addInitScript(observePageMetrics, { taskOrigin, firstButton: '' });
    await page.goto(url);
    const frame = await previewTaskFrame(page);
    // The worker's own screen has a heading; the opening screen has none.
    await frame.locator('#root h1').first().waitFor({ timeout: 60_000 });
    // LCP may still be replaced by a later, larger paint; give the throttled page a moment before reading.
    await page.waitForTimeout(1500);
    const metrics = await frame.evaluate(readPageMetrics);
    if (!metrics) throw new Error('the reopened task page frame recorded no metrics');
    const firstPaintMs = await frame.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
    return { ...metrics, firstPaintMs };
  } finally {
    await context.close();
  }
}

/** The medians of the reopened loads, and the page of the build the server answered them with. */
export function returningSummary(runs: ReturningMetrics[], html: string) {
  const median = (values: number[]) =>
    round(
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      ),
      0,
    );
  return {
    html,
    lcpMs: median(runs.map((run) => run.lcpMs)),
    lcpElement: runs[0]?.lcpElement ?? '',
    firstPaintMs: median(runs.map((run) => run.firstPaintMs)),
    runs: runs.map((run) => [round(run.lcpMs, 0), round(run.firstPaintMs, 0)]),
  };
}
