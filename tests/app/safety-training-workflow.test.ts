import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { locales } from '@partner-task-kit/page/screens';
import { readyTaskView } from '@partner-task-kit/testing';
import {
  POLICY_VERSION,
  policyDataSchema,
  QUIZ_RULES,
  safetyTraining,
  signatureDataSchema,
} from '../../src/workflows/safety-training/definition';
import definition from '../../src/workflows/safety-training/definition';
import serverHalf, { answerRationales, safetyTrainingServer } from '../../src/workflows/safety-training/definition.server';
import SafetyTrainingFailed from '../../src/workflows/safety-training/failed';
import textsEn from '../../src/workflows/safety-training/texts.en';
import textsEs from '../../src/workflows/safety-training/texts.es';
import workflows from 'virtual:partner-task-kit/workflows';

const rightAnswers = { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' } as const;
const gradeQuiz = safetyTrainingServer.graders.quiz!;

/** The field each issue names, as the server's 400 invalid_step_data names `data.<field>`. */
function problems(schema: typeof policyDataSchema | typeof signatureDataSchema, data: unknown): string[] {
  return (schema.safeParse(data).error?.issues ?? []).map((issue) => issue.path.join('.'));
}

describe('the safety training: policy and signature', () => {
  it('takes an acknowledgement of the current policy version only', () => {
    expect(problems(policyDataSchema, { acknowledged: true, policyVersion: POLICY_VERSION })).toEqual([]);
    expect(problems(policyDataSchema, { acknowledged: false, policyVersion: POLICY_VERSION })).toEqual(['acknowledged']);
    expect(problems(policyDataSchema, { acknowledged: true, policyVersion: 'SP-2020.1' })).toEqual(['policyVersion']);
  });

  it('takes a confirmed signature of a plain name, and reports the name to the platform', () => {
    expect(problems(signatureDataSchema, { fullName: 'Ana López', confirmed: true })).toEqual([]);
    expect(problems(signatureDataSchema, { fullName: 'A', confirmed: true })).toEqual(['fullName']);
    expect(problems(signatureDataSchema, { fullName: '<b>Ana</b>', confirmed: true })).toEqual(['fullName']);
    expect(problems(signatureDataSchema, { fullName: 'Ana López', confirmed: false })).toEqual(['confirmed']);
    const signature = safetyTraining.steps.at(-1)!;
    expect(signature.report({ fullName: 'Ana López', confirmed: true }, undefined).details).toContain('Ana López');
  });
});

describe('the safety training: the quiz, graded on the server', () => {
  it('counts the right answers against the answer key', () => {
    expect(gradeQuiz({ answers: rightAnswers })).toEqual({ score: 5, total: 5 });
    expect(gradeQuiz({ answers: { ...rightAnswers, exits: 'a', spill: 'b' } })).toEqual({ score: 3, total: 5 });
  });

  it('passes at the pass mark, within the attempts allowed', () => {
    expect(QUIZ_RULES).toEqual({ passMark: 4, maxAttempts: 3 });
    expect(gradeQuiz({ answers: { ...rightAnswers, exits: 'a' } }).score).toBeGreaterThanOrEqual(QUIZ_RULES.passMark);
  });

  it('keeps the answer key and its reasons out of the definition the page ships', () => {
    const pageHalf = JSON.stringify(safetyTraining);
    for (const rationale of answerRationales) expect(pageHalf).not.toContain(rationale);
  });

  it('is its folder’s workflow, with its grader in the server half, so the server grades the quiz', () => {
    // docs/architecture.md#a-workflow-is-a-folder: found by the default exports of the folder's two definition files.
    expect(definition).toBe(safetyTraining);
    expect(safetyTraining.id).toBe('safety-training');
    expect(serverHalf).toBe(safetyTrainingServer);
    expect(serverHalf.graders.quiz).toBeTypeOf('function');
    // As the server receives it (server/main.ts).
    expect(workflows.find((workflow) => workflow.definition.id === 'safety-training')?.server).toBe(safetyTrainingServer);
  });
});

describe('the safety training: its own failure screen', () => {
  const failedTask = {
    ...readyTaskView,
    workflow: { id: 'safety-training', estimatedMinutes: 10, steps: safetyTraining.steps.map(({ id }) => ({ id })) },
    status: 'error' as const,
    currentStep: null,
    gradedAttempts: { quiz: { used: QUIZ_RULES.maxAttempts, max: QUIZ_RULES.maxAttempts } },
    failure: { reason: 'attempts_exhausted' as const, stepId: 'quiz' },
  };
  const texts = { en: textsEn, es: textsEs };

  it.each(locales)('names the quiz and the attempts it allowed in %s, then offers the shell\'s "Start again"', (locale) => {
    const html = renderToStaticMarkup(
      createElement(SafetyTrainingFailed, {
        task: failedTask,
        locale,
        texts: texts[locale],
        justEnded: true,
        restart: createElement('button', { type: 'button' }, 'restart'),
      }),
    );
    expect(html).toContain(texts[locale].failed.title);
    expect(html).toContain(texts[locale].failed.quizNotPassed(QUIZ_RULES.maxAttempts));
    expect(html).toMatch(/<\/p><button type="button">restart<\/button>$/);
  });
});
