import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pageScripts } from '../helpers/page-build';

export interface PageMetrics {
  lcpMs: number;
  lcpElement: string;
  cls: number;
  interactiveMs: number | null;
}

interface BenchWindow {
  __bench?: PageMetrics;
  /** The binding packages/kit-tests/bench/page.ts exposes (page-steps.ts's BenchReport). */
  __benchReport?: (report: { kind: 'interactive' }) => void;
}

/**
 * Runs at document start in every frame (Playwright init script) and records, in the task page's frame only, its LCP,
 * its CLS (shifts without recent input) and when the first step's button (`firstButton`, its text) is there, enabled
 * and React's: a prerendered page paints the button before any script has run, and a click does nothing until React
 * has hydrated it (attached its props, and so its handler). Times are from the frame's own navigation start.
 */
export function observePageMetrics({ taskOrigin, firstButton }: { taskOrigin: string; firstButton: string }): void {
  if (location.origin !== taskOrigin) return;
  const metrics: PageMetrics = { lcpMs: 0, lcpElement: '', cls: 0, interactiveMs: null };
  (window as unknown as BenchWindow).__bench = metrics;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>) {
      metrics.lcpMs = entry.startTime;
      metrics.lcpElement = entry.element
        ? `${entry.element.tagName.toLowerCase()}${entry.element.className ? `.${String(entry.element.className).split(' ')[0]}` : ''}`
        : '';
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
      if (!entry.hadRecentInput) metrics.cls += entry.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
  const check = () => {
    const ready = [...document.querySelectorAll('button')].some(
      (button) =>
        button.textContent?.trim() === firstButton && !button.disabled && Object.keys(button).some((key) => key.startsWith('__reactProps')),
    );
    if (ready && metrics.interactiveMs === null) {
      metrics.interactiveMs = performance.now();
      observer.disconnect();
      clearInterval(poll);
      (window as unknown as BenchWindow).__benchReport?.({ kind: 'interactive' });
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  // Hydration changes no node, so no mutation announces it: look again every few milliseconds too.
  const poll = setInterval(check, 20);
}

/** The metrics, and the frame's requests (path, start and end, ms) to tell where the time before LCP went. */
export function readPageMetrics(): (PageMetrics & { timeline: Array<[string, number, number]> }) | undefined {
  const metrics = (window as unknown as BenchWindow).__bench;
  if (!metrics) return undefined;
  const entries = [
    ...performance.getEntriesByType('navigation'),
    ...performance.getEntriesByType('resource'),
  ] as PerformanceResourceTiming[];
  const timeline = entries.map((entry): [string, number, number] => [
    new URL(entry.name).pathname.slice(0, 40),
    Math.round(entry.startTime),
    Math.round(entry.responseEnd),
  ]);
  return { ...metrics, timeline };
}

export interface AssetSizes {
  js: { files: string[]; rawKb: number; gzipKb: number };
  css: { files: string[]; rawKb: number; gzipKb: number };
}

/** What a page of the task needs before it can run, from the HTML the server answered for a link, and its stylesheets. */
export function initialAssetSizes(outDir: string, html: string): AssetSizes {
  // A disabled link is neither fetched nor applied: a first screen keeps one beside the same styles inlined.
  const linked = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]*>/g)]
    .filter((match) => !/\sdisabled[\s>]/.test(match[0]))
    .map((match) => /href="([^"]+)"/.exec(match[0])![1]!);
  const inline = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => Buffer.from(match[1]!));
  return {
    js: sizes(pageScripts(outDir, html).map((file) => ({ name: file, bytes: readAsset(outDir, file) }))),
    css: sizes([
      ...linked.map((file) => ({ name: file, bytes: readAsset(outDir, file) })),
      ...inline.map((bytes) => ({ name: 'inline <style>', bytes })),
    ]),
  };
}

function readAsset(outDir: string, file: string): Buffer {
  return readFileSync(join(outDir, file.replace(/^\//, '')));
}

function sizes(entries: Array<{ name: string; bytes: Buffer }>) {
  let raw = 0;
  let gzip = 0;
  const files = entries.map((entry) => entry.name);
  for (const { bytes } of entries) {
    raw += bytes.length;
    // At the level the build writes the copies the server sends (packages/vite-plugin/src/page-compression.ts).
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files, rawKb: Math.round((raw / 1024) * 10) / 10, gzipKb: Math.round((gzip / 1024) * 10) / 10 };
}
