import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Frame, type Page } from '@playwright/test';
import { buildPage } from '../helpers/page-build';
import { machine, percentile, round } from './bench-support';
import { startServerProcess } from './bench-server-process';
import { contextParamNames } from '@partner-task-kit/workflow/contract/task-context';
import { initialAssetSizes, observePageMetrics, readPageMetrics, type PageMetrics } from './page-metrics';
import { observeStepPresses, workflowWalks, type BenchReport, type WorkflowWalk } from './page-steps';
import { reopenOnce, returningSummary, type ReturningMetrics } from './page-returning';
import { freePort } from '../helpers/server-process';

/**
 * `node --import tsx packages/kit-tests/bench/page.ts`: the production build served by the server in emulator mode, opened inside the
 * preview portal's iframe (portal on http://localhost:<port>, task page on http://127.0.0.1:<port>, two sites) in
 * Chromium throttled like Lighthouse's mobile run: Slow 4G and a CPU 4x slower. For each workflow's link: the
 * JavaScript the HTML the server answers that link loads and preloads; then, per load, the first screen (LCP, CLS,
 * first step interactive) and every step as a worker goes through it (press to the next screen shown, and the press's
 * Interaction to Next Paint). A fresh browser context (cold cache) and a fresh assignment per load; the median of the
 * loads is reported. Then a returning worker: each load's task, left where its walk ended (done, or waiting on the
 * partner), opened again from its link in a fresh context on the same profile, and its LCP (the server answers it with
 * the opening screen, docs/architecture.md#how-a-link-is-answered). `--workflows a,b` measures some of them.
 */
const { values } = parseArgs({ options: { loads: { type: 'string', default: '5' }, workflows: { type: 'string' } } });
const loads = Number(values.loads);
let traceCount = 0;
const walks = values.workflows ? workflowWalks.filter((walk) => values.workflows!.split(',').includes(walk.id)) : workflowWalks;

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
  const workflows = [];
  let timeline: Array<[string, number, number]> | undefined;
  for (const walk of walks) {
    const link = await linkPage(walk.id);
    const runs: LoadResult[] = [];
    for (let index = 0; index < loads; index += 1) runs.push(await loadOnce(walk));
    timeline ??= runs.at(-1)?.timeline;
    const returning: ReturningMetrics[] = [];
    for (const run of runs) {
      const reopened = {
        ...(await phoneContext()),
        url: `${portalOrigin}/preview/tasks/${run.assignedTaskUuid}`,
        taskOrigin,
        previewTaskFrame,
      };
      returning.push(await reopenOnce(reopened));
    }
    workflows.push({
      id: walk.id,
      html: link.file,
      ...pageSummary(walk, runs),
      returning: returningSummary(returning, await servedPage(runs[0]!.taskUrl)),
      initialJs: link.assets.js,
      initialCss: link.assets.css,
    });
  }
  // The default workflow's last load: the task frame's requests, [path, start, end] in ms from its navigation start.
  console.log(JSON.stringify({ suite: 'page', loads, host: 'preview', workflows, timeline, machine: machine() }));
} finally {
  await browser.close();
  await server.stop();
  rmSync(directory, { recursive: true, force: true });
}

interface LoadResult extends PageMetrics {
  assignedTaskUuid: string;
  /** The task page's address in the portal's frame: the worker's link, context included. */
  taskUrl: string;
  timeline: Array<[string, number, number]>;
  steps: Array<{ pressToNextMs: number; inpMs: number }>;
}

function pageSummary(walk: WorkflowWalk, runs: LoadResult[]) {
  const median = (values: number[], digits = 0) =>
    round(
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      ),
      digits,
    );
  return {
    lcpMs: median(runs.map((run) => run.lcpMs)),
    lcpElement: runs[0]?.lcpElement,
    cls: median(
      runs.map((run) => run.cls),
      3,
    ),
    firstStepInteractiveMs: median(runs.map((run) => run.interactiveMs ?? Number.NaN)),
    runs: runs.map((run) => ({
      lcpMs: round(run.lcpMs, 0),
      cls: round(run.cls, 3),
      interactiveMs: round(run.interactiveMs ?? Number.NaN, 0),
    })),
    steps: walk.steps.map((step, index) => {
      const measured = runs.map((run) => run.steps[index]!);
      return {
        step: step.step,
        next: step.next,
        graded: step.graded === true,
        pressToNextMs: median(measured.map((each) => each.pressToNextMs)),
        inpMs: median(measured.map((each) => each.inpMs)),
        runs: measured.map((each) => [round(each.pressToNextMs, 0), round(each.inpMs, 0)]),
      };
    }),
  };
}

/** The HTML the server answers a worker's link to this workflow with (valid context, English), and what it loads. */
async function linkPage(workflow: string) {
  const context = Object.fromEntries(contextParamNames.map((name) => [name, randomUUID()]));
  const response = await fetch(`${taskOrigin}/?${new URLSearchParams({ ...context, workflow })}`, {
    headers: { 'accept-language': 'en-US,en;q=0.9', 'accept-encoding': 'identity' },
  });
  if (!response.ok) throw new Error(`the link of ${workflow} answered ${response.status}`);
  const html = await response.text();
  const file = builtPageFiles(outDir).find((page) => readFileSync(join(outDir, page), 'utf8') === html) ?? 'unknown';
  return { file, assets: initialAssetSizes(outDir, html) };
}

async function loadOnce(walk: WorkflowWalk): Promise<LoadResult> {
  const uuid = await assignWorkflow(walk.id);
  const { context, page } = await phoneContext();
  try {
    const reports: BenchReport[] = [];
    await context.exposeBinding('__benchReport', (_source, report: BenchReport) => void reports.push(report));
    // Registered before the first navigation, so they run at document start in every frame of it.
    await context.addInitScript(observePageMetrics, { taskOrigin, firstButton: walk.firstButton });
    await context.addInitScript(observeStepPresses, taskOrigin);
    // BENCH_PAGE_TRACE=<dir>: a Chrome trace of each load until the first step is interactive (chrome://tracing or
    // the DevTools Performance panel open it), to tell where the time before it went.
    const traceDirectory = process.env.BENCH_PAGE_TRACE;
    if (traceDirectory) await browser.startTracing(page, { path: join(traceDirectory, `${walk.id}-${++traceCount}.json`) });
    await page.goto(`${portalOrigin}/preview/tasks/${uuid}`);
    const frame = await previewTaskFrame(page);
    // Told by the frame through the binding, not polled with waitForFunction: Playwright would inject its script into
    // the frame while it loads, tens of milliseconds of the throttled main thread that no worker's page spends.
    await reportOf(page, reports, 'interactive', 60_000);
    if (traceDirectory) await browser.stopTracing();
    // LCP may still be replaced by a later, larger paint; give the throttled page a moment before reading.
    await page.waitForTimeout(1500);
    const metrics = await frame.evaluate(readPageMetrics);
    if (!metrics) throw new Error('the task page frame recorded no metrics');
    const steps: LoadResult['steps'] = [];
    for (const step of walk.steps) {
      await step.fill?.(frame);
      reports.length = 0;
      await frame.evaluate((heading) => (window as { __benchExpect?: (heading: string) => void }).__benchExpect?.(heading), step.next);
      await frame.getByRole('button', { name: step.press, exact: true }).click();
      const shown = await reported(page, reports, step.next);
      // The press's event entries come once the paint that ends them is done: well before the next step, as a rule.
      await page.waitForTimeout(300);
      const events = reports.filter(
        (each) => each.kind === 'event' && each.startTime >= shown.pressAt - 1 && each.startTime < shown.shownAt,
      );
      // No entry: every event of the press took under 16 ms (the smallest threshold Event Timing reports).
      steps.push({
        pressToNextMs: shown.shownAt - shown.pressAt,
        inpMs: Math.max(0, ...events.map((each) => (each.kind === 'event' ? each.duration : 0))),
      });
    }
    return { ...metrics, assignedTaskUuid: uuid, taskUrl: frame.url(), steps };
  } finally {
    await context.close();
  }
}

/** A fresh browser context (cold cache), throttled as a first visit is. */
async function phoneContext() {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
  // tsx keeps function names with an `__name` helper that does not exist in the page: define it first.
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', slow4g);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { context, page };
}

/** Which page of the build the server answers this link with now (for a returning worker: the opening screen). */
async function servedPage(taskUrl: string): Promise<string> {
  const response = await fetch(taskUrl, { headers: { 'accept-language': 'en-US,en;q=0.9', 'accept-encoding': 'identity' } });
  const html = await response.text();
  return builtPageFiles(outDir).find((page) => readFileSync(join(outDir, page), 'utf8') === html) ?? 'unknown';
}

async function reported(page: Page, reports: BenchReport[], heading: string) {
  try {
    return await reportOf(page, reports, 'shown', 30_000);
  } catch {
    throw new Error(`"${heading}" was not shown within 30 s of the press`);
  }
}

async function reportOf<Kind extends BenchReport['kind']>(page: Page, reports: BenchReport[], kind: Kind, timeoutMs: number) {
  for (let waited = 0; waited < timeoutMs; waited += 50) {
    const found = reports.find((each): each is Extract<BenchReport, { kind: Kind }> => each.kind === kind);
    if (found) return found;
    await page.waitForTimeout(50);
  }
  throw new Error(`no ${kind} report within ${timeoutMs / 1000} s`);
}

async function previewTaskFrame(page: Page): Promise<Frame> {
  for (let waited = 0; waited < 60_000; waited += 100) {
    const frame = page.frames().find((candidate) => candidate.url().startsWith(taskOrigin));
    if (frame) return frame;
    await page.waitForTimeout(100);
  }
  throw new Error(`no iframe from ${taskOrigin} in the preview portal`);
}

async function assignWorkflow(workflow: string): Promise<string> {
  const response = await fetch(`${taskOrigin}/emulator/control/assignments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      title: workflow,
      estimatedCompletionTime: '10 minutes',
      // The link's designer variable, as the preview's workflow select writes it (README.md#walkthrough-the-preview-portal).
      iframeUrl: `${taskOrigin}/?workflow=${workflow}`,
      appendTaskContext: true,
    }),
  });
  if (!response.ok) throw new Error(`creating an assignment answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { assignedTaskUuid: string }).assignedTaskUuid;
}

/** The HTML pages of the build: index.html, each prerendered first screen and each opening screen. */
function builtPageFiles(outDir: string): string[] {
  const screens = readdirSync(join(outDir, 'first-screens'), { recursive: true, encoding: 'utf8' }).filter((name) =>
    name.endsWith('.html'),
  );
  return ['index.html', ...screens.map((name) => `first-screens/${name}`)];
}
