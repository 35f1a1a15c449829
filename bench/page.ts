import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Frame, type Page } from '@playwright/test';
import { buildPage } from '../tests/helpers/page-build';
import { machine, percentile, round } from './bench-support';
import { startServerProcess } from './bench-server-process';
import { initialAssetSizes, observePageMetrics, readPageMetrics, type PageMetrics } from './page-metrics';

/**
 * `node --import tsx bench/page.ts`: the production build served by the server in emulator mode, opened inside the
 * preview portal's iframe (portal on http://localhost:<port>, task page on http://127.0.0.1:<port>, two sites) in
 * Chromium throttled like Lighthouse's mobile run: Slow 4G and a CPU 4x slower. A fresh browser context (cold cache)
 * and a fresh assignment per load; the median of the loads is reported.
 */
const { values } = parseArgs({ options: { loads: { type: 'string', default: '5' } } });
const loads = Number(values.loads);

// Lighthouse's Slow 4G: 150 ms round trip, 1.6 Mbps down, 750 Kbps up. CDP applies the latency per request, not per
// TCP round trip as Lighthouse's simulation does, so this is if anything a little kinder than Lighthouse.
const slow4g = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

const port = await freePort();
const directory = mkdtempSync(join(tmpdir(), 'ptk-bench-page-'));
const outDir = join(directory, 'dist');
await buildPage({ outDir });
const server = await startServerProcess({
  PORT: String(port),
  DATABASE_URL: join(directory, 'page.db'),
  LOG_LEVEL: 'warn',
  BENCH_PAGE_DIRECTORY: outDir,
});
const taskOrigin = `http://127.0.0.1:${port}`;
const portalOrigin = `http://localhost:${port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  // Site isolation off: the iframe shares the portal's renderer, so the CPU and network throttling of the page's
  // session covers it too. Phones mostly run without full site isolation anyway.
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-site-isolation-trials',
    '--disable-features=site-per-process,IsolateOrigins,LocalNetworkAccessChecks',
  ],
});

try {
  const runs: PageMetrics[] = [];
  const timelines: Array<Array<[string, number, number]>> = [];
  for (let index = 0; index < loads; index += 1) {
    const { timeline, ...metrics } = await loadOnce();
    runs.push(metrics);
    timelines.push(timeline);
  }
  const median = (pick: (run: PageMetrics) => number) =>
    round(
      percentile(
        runs.map(pick).sort((a, b) => a - b),
        50,
      ),
      0,
    );
  const assets = initialAssetSizes(outDir);
  console.log(
    JSON.stringify({
      suite: 'page',
      loads,
      host: 'preview',
      lcpMs: median((run) => run.lcpMs),
      lcpElement: runs[0]?.lcpElement,
      cls: round(
        percentile(
          runs.map((run) => run.cls).sort((a, b) => a - b),
          50,
        ),
        3,
      ),
      firstStepInteractiveMs: median((run) => run.interactiveMs ?? Number.NaN),
      runs: runs.map((run) => ({
        lcpMs: round(run.lcpMs, 0),
        cls: round(run.cls, 3),
        interactiveMs: round(run.interactiveMs ?? Number.NaN, 0),
      })),
      // The task frame's requests in the last load: [path, start, end] in ms from the frame's navigation start.
      timeline: timelines.at(-1),
      initialJs: assets.js,
      initialCss: assets.css,
      machine: machine(),
    }),
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(directory, { recursive: true, force: true });
}

async function loadOnce() {
  const uuid = await createAssignment();
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
  try {
    // tsx keeps function names with an `__name` helper that does not exist in the page: define it first.
    await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    await context.addInitScript(observePageMetrics, taskOrigin);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', slow4g);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${portalOrigin}/preview/tasks/${uuid}`);
    const frame = await taskFrame(page);
    await frame.waitForFunction(() => (window as { __bench?: PageMetrics }).__bench?.interactiveMs != null, undefined, {
      timeout: 60_000,
      polling: 100,
    });
    // LCP may still be replaced by a later, larger paint; give the throttled page a moment before reading.
    await page.waitForTimeout(1500);
    const metrics = await frame.evaluate(readPageMetrics);
    if (!metrics) throw new Error('the task page frame recorded no metrics');
    return metrics;
  } finally {
    await context.close();
  }
}

async function taskFrame(page: Page): Promise<Frame> {
  for (let waited = 0; waited < 60_000; waited += 100) {
    const frame = page.frames().find((candidate) => candidate.url().startsWith(taskOrigin));
    if (frame) return frame;
    await page.waitForTimeout(100);
  }
  throw new Error(`no iframe from ${taskOrigin} in the preview portal`);
}

async function createAssignment(): Promise<string> {
  const response = await fetch(`${taskOrigin}/emulator/control/assignments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Workplace safety training',
      estimatedCompletionTime: '10 minutes',
      iframeUrl: `${taskOrigin}/`,
      appendTaskContext: true,
    }),
  });
  if (!response.ok) throw new Error(`creating an assignment answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { assignedTaskUuid: string }).assignedTaskUuid;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}
