import { randomUUID } from 'node:crypto';
import { expect, test as base, type FrameLocator } from '@playwright/test';
import { expectNoAxeViolations } from './accessibility';

/** The worker portal's origin in these tests: another origin than the task page (127.0.0.1), as in production. */
const PORTAL_ORIGIN = 'http://portal.test';

export interface Assignment {
  workerUuid: string;
  assignedTaskUuid: string;
  taskFlowUuid: string;
  companyUuid: string;
  launchUrl: string;
}

interface TrailEntry {
  kind: string;
  outcome?: string;
  record?: { taskStatus: string; sentAt: string; partnerId?: string; partnerStatus?: { label?: string; color?: string; details?: string } };
}

export interface PortalHost {
  assignment: Assignment;
  /** The task page inside the portal's iframe. */
  frame: FrameLocator;
  /** Opens the portal page, which frames the task page at the assignment's launch URL (docs/platform.md#partner-task-configuration and docs/platform.md#task-context). */
  open(launchUrl?: string): Promise<void>;
  /** Messages the portal page received from the iframe, with the origin the browser reported. */
  messages(): Promise<{ origin: string; data: unknown }[]>;
  /** The emulator's record of the assigned task: status and the audit trail of updates it received (docs/platform.md#partner-task-update-record). */
  emulatorTask(): Promise<{ status: string; trail: TrailEntry[] }>;
  /** [taskStatus, label, color] of every update the emulator applied, in arrival order. */
  appliedUpdates(): Promise<string[][]>;
  /** Runs axe (WCAG 2.1 AA) on the portal page and the framed task page; fails on any violation. */
  checkAccessibility(screen: string): Promise<void>;
  /** Bodies of every /api/ answer the task page received. */
  apiBodies: string[];
}

function hostPage(launchUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Worker portal</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0"><main><h1 style="font-size:1rem;margin:4px">Worker portal</h1>
<iframe id="task" title="Onboarding task" src="${launchUrl.replaceAll('"', '&quot;')}" style="width:100%;height:1400px;border:0"></iframe></main>
<script>window.__messages=[];window.addEventListener('message',function(e){window.__messages.push({origin:e.origin,data:e.data});});</script>
</body></html>`;
}

async function assignTraining(baseURL: string): Promise<Assignment> {
  const response = await fetch(`${baseURL}/emulator/control/assignments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Safety training',
      iframeUrl: `${baseURL}/?from=portal`,
      estimatedCompletionTime: '10 minutes',
      endEvent: 'partner-task-complete',
      assignedTaskUuid: randomUUID(),
    }),
  });
  if (response.status !== 201) throw new Error(`creating the assignment answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Assignment;
}

/** The errors a test's pages log, and the ones the test declared it causes. */
export interface ConsoleErrors {
  /**
   * Declares that this test makes a page log an error matching `pattern`, tested against
   * `console.error: <text> (<url>)` (a failed request's console message names its URL) or `pageerror: <stack>`;
   * `reason` says why that error is the point of the test.
   */
  expect(pattern: RegExp, reason: string): void;
}

export const test = base.extend<{ portal: PortalHost; consoleErrors: ConsoleErrors }>({
  // docs/architecture.md#tests-read-like-behaviour: a test fails on any console error, CSP violations included, in any page or frame of its
  // browser context, unless it declared that error with `consoleErrors.expect`. Automatic: on for every test.
  consoleErrors: [
    async ({ context }, use) => {
      const logged: string[] = [];
      const expected: RegExp[] = [];
      context.on('console', (message) => {
        if (message.type() === 'error') logged.push(`console.error: ${message.text()} (${message.location().url || 'no url'})`);
      });
      context.on('weberror', (webError) => {
        const error = webError.error();
        logged.push(`pageerror: ${error.stack ?? `${error.name}: ${error.message}`}`);
      });
      await use({
        expect: (pattern, reason) => {
          if (reason.trim() === '') throw new Error(`consoleErrors.expect(${String(pattern)}) needs a reason`);
          expected.push(pattern);
        },
      });
      const unexpected = logged.filter((entry) => !expected.some((pattern) => pattern.test(entry)));
      expect(unexpected, 'errors logged in the browser that the test did not declare with consoleErrors.expect').toEqual([]);
    },
    { auto: true },
  ],
  portal: async ({ page, baseURL }, use) => {
    const assignment = await assignTraining(baseURL!);
    const apiBodies: string[] = [];
    page.on('response', async (response) => {
      if (!response.url().includes('/api/')) return;
      apiBodies.push(await response.text().catch(() => ''));
    });
    let hostedUrl = assignment.launchUrl;
    await page.route(`${PORTAL_ORIGIN}/**`, (route) => route.fulfill({ contentType: 'text/html', body: hostPage(hostedUrl) }));
    const emulatorTask = async () => {
      const response = await fetch(`${baseURL}/emulator/control/assignments/${assignment.assignedTaskUuid}`);
      return (await response.json()) as { status: string; trail: TrailEntry[] };
    };
    await use({
      assignment,
      frame: page.frameLocator('#task'),
      apiBodies,
      open: async (launchUrl) => {
        hostedUrl = launchUrl ?? assignment.launchUrl;
        await page.goto(`${PORTAL_ORIGIN}/onboarding`);
      },
      messages: () => page.evaluate(() => (window as unknown as { __messages: { origin: string; data: unknown }[] }).__messages),
      emulatorTask,
      appliedUpdates: async () =>
        (await emulatorTask()).trail
          .filter((entry) => entry.kind === 'partner' && entry.outcome === 'applied')
          .map((entry) => [entry.record!.taskStatus, entry.record!.partnerStatus?.label ?? '', entry.record!.partnerStatus?.color ?? '']),
      checkAccessibility: (screen) => expectNoAxeViolations(page, `the ${screen} screen`),
    });
  },
});

export { expect };
