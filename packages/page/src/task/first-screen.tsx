import { createContext, use, type ReactNode } from 'react';
import { z } from 'zod/mini';
import { taskViewSchema, type TaskView } from '@partner-task-kit/workflow/contract';
import { locales } from '../ui/i18n/locale.ts';

/**
 * The first screen the HTML already carries: the server sends a page prerendered at build time with the first step of
 * the link's workflow in the browser's language (packages/vite-plugin prerenders it, packages/server/src/page/first-screen-file.ts
 * picks it), so the worker sees the step before any script has run. #root names what it shows in this attribute; the
 * app hydrates that markup when it would render the same, and renders afresh otherwise.
 */
export const FIRST_SCREEN_ATTRIBUTE = 'data-first-screen';

/**
 * Set on #root, to the page's language, when the HTML holds the neutral opening screen (opening-screen.tsx): the
 * server answers a task already under way or ended with it (packages/server/src/page/first-screen-file.ts), and the page
 * hydrates it rather than clearing #root, so nothing but that screen and then the worker's own is ever painted.
 */
export const OPENING_SCREEN_ATTRIBUTE = 'data-opening';

const firstScreenSchema = z.object({
  locale: z.enum(locales),
  workflow: taskViewSchema.shape.workflow,
  /**
   * The file of the workflow's screens, which the page preloads and imports by this name, so it needs no table of
   * every workflow's screens (packages/page/src/workflows/workflow-views.tsx). A path of this origin, nothing else.
   */
  screens: z.optional(z.string().check(z.regex(/^\/(?!\/)[\w./-]+\.js$/))),
});
export type FirstScreen = z.infer<typeof firstScreenSchema>;

/** What #root says it was prerendered with, or undefined when it holds no prerendered screen. */
export function readFirstScreen(root: HTMLElement): FirstScreen | undefined {
  const value = root.getAttribute(FIRST_SCREEN_ATTRIBUTE);
  if (value === null) return undefined;
  try {
    const parsed = firstScreenSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The view of a task of this workflow that nobody has opened yet: what POST /api/session answers for a new task,
 * less what only the server knows (ids, times). It is shown, never stored: the session's own view replaces it.
 */
export function unopenedTaskView(workflow: FirstScreen['workflow']): TaskView {
  return {
    id: '',
    assignedTaskUuid: '',
    workflow,
    status: 'ready',
    attempt: 1,
    started: false,
    currentStep: workflow.steps[0]?.id ?? null,
    progress: workflow.steps.length > 0 ? { position: 1, total: workflow.longestPath ?? workflow.steps.length } : null,
    canGoBack: false,
    canRestart: true,
    stepData: {},
    gradedAttempts: {},
    failure: null,
    history: [],
    updatedAt: new Date(0).toISOString(),
  };
}

const FirstScreenContext = createContext<FirstScreen | undefined>(undefined);

export function FirstScreenProvider({ value, children }: { value: FirstScreen | undefined; children: ReactNode }) {
  return <FirstScreenContext value={value}>{children}</FirstScreenContext>;
}

/** The prerendered first screen the page was hydrated from, if any. */
export function useFirstScreen(): FirstScreen | undefined {
  return use(FirstScreenContext);
}
