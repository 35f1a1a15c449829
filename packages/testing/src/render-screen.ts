import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { StepOfferResponse, TaskView } from '@partner-task-kit/workflow/contract';
import { offerIsEmpty } from '@partner-task-kit/workflow';
import { ApiClientProvider, taskKeys, LocaleProvider, shellTextsEn, shellTextsEs } from '@partner-task-kit/page/internal';
import type { Locale, StepRefusal, StepViewProps } from '@partner-task-kit/page/screens';
import { pageContext, readyTaskView } from './task-fixtures.ts';

export interface RenderScreenOptions<Texts> {
  workflow: string;
  stepId: string;
  locale: Locale;
  /** The workflow's texts in that language, as its step switch hands them to the screen. */
  texts: Texts;
  /** The task as the session answered it; by default a ready task on this step. */
  task?: Partial<TaskView>;
  savedData?: unknown;
  refusal?: StepRefusal;
  /**
   * What GET /api/task/steps/:id/offer answered, by step: the screen renders as after the answer came. The offer alone,
   * `empty` as the default rule of `isEmpty` tells; `offerAnswers` gives a whole answer instead.
   */
  offers?: Record<string, unknown>;
  /** Whole answers of GET /api/task/steps/:id/offer, by step (an empty offer's `checkAgainInMs`, say). */
  offerAnswers?: Record<string, StepOfferResponse>;
  /** The bytes of stored uploads by id (GET /api/task/uploads/:id), as after they loaded. */
  storedFiles?: Record<string, Blob>;
}

const shellTexts = { en: shellTextsEn, es: shellTextsEs };

/**
 * A workflow's screen rendered to HTML as the page renders it, inside the providers the shell gives it (the task's API
 * client, the language and the shell's texts, the query cache): for a workflow's own tests, without a browser.
 */
export function renderScreen<Texts>(Screen: ComponentType<StepViewProps & { texts: Texts }>, options: RenderScreenOptions<Texts>): string {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  for (const [stepId, offer] of Object.entries(options.offers ?? {})) {
    const answer: StepOfferResponse = { offer, loadedAt: '2026-03-01T09:00:00.000Z', empty: offerIsEmpty({}, offer) };
    queryClient.setQueryData(taskKeys.offer(pageContext, stepId), answer);
  }
  for (const [stepId, answer] of Object.entries(options.offerAnswers ?? {})) {
    queryClient.setQueryData(taskKeys.offer(pageContext, stepId), answer);
  }
  for (const [id, blob] of Object.entries(options.storedFiles ?? {}))
    queryClient.setQueryData(taskKeys.uploadedFile(pageContext, id), blob);
  const screen = createElement(Screen, {
    task: { ...readyTaskView, currentStep: options.stepId, ...options.task },
    stepId: options.stepId,
    savedData: options.savedData,
    locale: options.locale,
    saving: false,
    grading: undefined,
    headingId: 'step-title',
    focusHeading: false,
    refusal: options.refusal,
    onSubmit: () => {},
    texts: options.texts,
  });
  const withClient = createElement(ApiClientProvider, { context: pageContext, workflow: options.workflow, children: screen });
  const withLocale = createElement(LocaleProvider, { locale: options.locale, texts: shellTexts[options.locale], children: withClient });
  return renderToStaticMarkup(createElement(QueryClientProvider, { client: queryClient, children: withLocale }));
}
