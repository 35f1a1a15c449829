import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage } from '../helpers/page-build';
import { copyProject } from '../helpers/project-copy';
import { newContext } from '../helpers/task-app';
import workflows from 'virtual:partner-task-kit/workflows';
import { folderCatalog } from '@partner-task-kit/workflow';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** A theme of the app's own, as a partner writes it in src/theme.css: not the kit's blue. */
const theme = ':root {\n  --primary: #6a1b9a;\n  --primary-dark: #4a148c;\n}\n';
const themePrimary = 'rgb(106, 27, 154)';

/** Texts of the app's own, as a partner writes them in src/shell-texts.ts: English only, Spanish keeps the kit's. */
const shellTexts = `import type { ShellTextOverrides } from '@partner-task-kit/page';
export const shellTexts: ShellTextOverrides = {
  en: { documentTitle: 'Acme onboarding', progress: (step, total) => \`Part \${step} of \${total}\` },
};
`;

/** The system's Chromium where there is one (playwright.config.ts says why). */
const systemChromium = '/usr/bin/chromium';

describe("the app's theme and shell texts, on a first screen prerendered by the build and in the page that hydrates it", () => {
  let copy = '';
  const outDir = mkdtempSync(join(tmpdir(), 'ptk-dist-theme-'));
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    copy = await copyProject();
    writeFileSync(join(copy, 'src/theme.css'), theme);
    writeFileSync(join(copy, 'src/shell-texts.ts'), shellTexts);
    await buildPage({ root: copy, outDir });
    server = await startTestServer(
      { LOG_LEVEL: 'silent' },
      { workflows: folderCatalog(workflows, 'safety-training'), pageDirectory: outDir },
    );
    browser = await chromium.launch(existsSync(systemChromium) ? { executablePath: systemChromium, args: ['--no-sandbox'] } : {});
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    for (const dir of [outDir, copy]) if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('renders the English first screens with the app’s title and texts, and leaves the Spanish ones the kit’s', () => {
    const english = readFileSync(join(outDir, 'first-screens/safety-training.en.html'), 'utf8');
    expect(english).toContain('<title>Acme onboarding</title>');
    expect(english).toContain('Part 1 of 4</p>');
    const spanish = readFileSync(join(outDir, 'first-screens/safety-training.es.html'), 'utf8');
    expect(spanish).toContain('<title>Tarea de incorporación</title>');
    expect(spanish).toContain('Paso 1 de 4</p>');
  });

  it('paints the first screen in the app’s colours before any script runs, and keeps them and its texts once hydrated', async () => {
    const page = await browser!.newPage({ locale: 'en-US' });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    // The page's scripts held until the first screen has been looked at: what it shows then is the HTML and its styles.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/*.js', async (route) => {
      await released;
      await route.continue();
    });
    const query = new URLSearchParams({ ...newContext(), workflow: 'safety-training' });
    // Not until DOMContentLoaded, which waits for the page's (deferred) module scripts: until the HTML is in.
    await page.goto(`${server!.url}/?${query.toString()}`, { waitUntil: 'commit' });
    const begin = page.getByRole('button', { name: 'Begin the training' });
    await begin.waitFor();
    const painted = async () => ({
      primary: await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--primary').trim()),
      button: await begin.evaluate((button) => getComputedStyle(button).backgroundColor),
      title: await page.title(),
      progress: await page.locator('#progress-text').textContent(),
    });
    const beforeScripts = await painted();
    expect(await page.evaluate(() => document.documentElement.dataset.interactive)).toBeUndefined();
    expect(beforeScripts).toEqual({ primary: '#6a1b9a', button: themePrimary, title: 'Acme onboarding', progress: 'Part 1 of 4' });

    release();
    await page.waitForFunction(() => document.documentElement.dataset.interactive !== undefined);
    await expect.poll(() => begin.evaluate((button) => Object.keys(button).some((key) => key.startsWith('__reactProps')))).toBe(true);
    expect(await painted()).toEqual(beforeScripts);
    // A text the HTML and the hydrating page disagree on is a hydration error React reports on the console.
    expect(errors).toEqual([]);
    await page.close();
  });
});
