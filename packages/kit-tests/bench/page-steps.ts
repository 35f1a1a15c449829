import type { Frame } from '@playwright/test';
import { localDay } from '../fixtures/workflows/availability/definition.start-date';

/** One step as a worker goes through it: what they fill in (not timed), the button they press, the heading that follows. */
export interface StepWalk {
  step: string;
  fill?: (frame: Frame) => Promise<void>;
  press: string;
  /** The heading of the screen the press leads to: the next step's, or the done screen's. */
  next: string;
  /** The server grades the step (a quiz): its answer waits on the grading, so it has no target. */
  graded?: boolean;
}

export interface WorkflowWalk {
  id: string;
  /** The first step's button, whose hydration makes the step interactive (page-metrics.ts). */
  firstButton: string;
  steps: StepWalk[];
}

const DONE = 'All done';
const DAY_MS = 86_400_000;

/** Every workflow of src/workflows/ (a folder each), the default one first, in English, with answers the server accepts. */
export const workflowWalks: WorkflowWalk[] = [
  {
    id: 'safety-training',
    firstButton: 'Begin the training',
    steps: [
      { step: 'welcome', press: 'Begin the training', next: 'Read the safety policy' },
      {
        step: 'policy',
        fill: (frame) => frame.getByLabel('I have read and understood the safety policy.').check(),
        press: 'Continue to the quiz',
        next: 'Safety quiz',
      },
      {
        step: 'quiz',
        fill: async (frame) => {
          for (const answer of [
            'At all times',
            'Mark it off so nobody slips',
            'Before each use',
            'Every injury, the same day',
            'Bend your knees, back straight',
          ]) {
            await frame.getByLabel(answer).check();
          }
        },
        press: 'Submit answers',
        next: 'Sign the training record',
        graded: true,
      },
      {
        step: 'signature',
        fill: async (frame) => {
          await frame.getByLabel('Your full name').fill('Alex Example');
          await frame.getByLabel('I confirm that I completed this training myself.').check();
        },
        press: 'Sign and finish',
        next: DONE,
      },
    ],
  },
  {
    id: 'availability',
    firstButton: 'Continue',
    steps: [
      {
        step: 'start',
        fill: (frame) => frame.getByLabel('First day you can work').fill(localDay(new Date(Date.now() + 7 * DAY_MS))),
        press: 'Continue',
        next: 'Which shifts can you work?',
      },
      {
        step: 'shifts',
        fill: (frame) => frame.getByLabel('Mornings (6:00 to 14:00)').check(),
        press: 'Continue',
        next: 'How many hours a week?',
      },
      {
        step: 'hours',
        fill: (frame) => frame.getByLabel('Most hours you can work in a week').fill('30'),
        press: 'Send my availability',
        next: DONE,
      },
    ],
  },
  {
    id: 'background-check',
    firstButton: 'Give consent',
    steps: [
      {
        step: 'consent',
        fill: async (frame) => {
          await frame.getByLabel('Full name').fill('Alex Example');
          await frame.getByLabel('I agree to the background check described above.').check();
        },
        press: 'Give consent',
        // The next step is the partner's (it completes the check): the worker waits on this screen.
        next: 'Your background check is under way',
      },
    ],
  },
];

/**
 * What the task frame reports through the `__benchReport` binding: of one press (observeStepPresses), and the moment
 * its first step became interactive (observePageMetrics in page-metrics.ts).
 */
export type BenchReport =
  { kind: 'shown'; pressAt: number; shownAt: number } | { kind: 'event'; startTime: number; duration: number } | { kind: 'interactive' };

interface PressWindow {
  __benchReport?: (report: BenchReport) => void;
  __benchExpect?: (heading: string) => void;
}

/**
 * Init script of every frame; acts in the task page's frame only. `__benchExpect(heading)` arms a watch: the press is
 * the next pointerdown (its event time, the input's), and the heading is shown at the first animation frame after an
 * h1 reads `heading`, the frame that paints it. Each event of an interaction that took 16 ms or more (Event Timing,
 * the entries INP is made of) is reported too. Reports go out through a binding at once, as the page may be closed
 * right after (the portal closes the iframe on the end event).
 */
export function observeStepPresses(taskOrigin: string): void {
  if (location.origin !== taskOrigin) return;
  const page = window as unknown as PressWindow;
  const report = (value: BenchReport) => page.__benchReport?.(value);
  let pressAt: number | undefined;
  addEventListener('pointerdown', (event) => void (pressAt ??= event.timeStamp), { capture: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { interactionId?: number }>) {
      if (entry.interactionId) report({ kind: 'event', startTime: entry.startTime, duration: entry.duration });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  page.__benchExpect = (heading) => {
    pressAt = undefined;
    const check = () => {
      if (pressAt === undefined || document.querySelector('h1')?.textContent?.trim() !== heading) return;
      observer.disconnect();
      const at = pressAt;
      requestAnimationFrame(() => report({ kind: 'shown', pressAt: at, shownAt: performance.now() }));
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, characterData: true });
  };
}
