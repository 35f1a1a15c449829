import { describe, expect, it } from 'vitest';
import {
  POLICY_VERSION,
  policyDataSchema,
  QUIZ_RULES,
  safetyTraining,
  signatureDataSchema,
} from '../../src/workflows/safety-training/definition';
import { answerRationales, safetyTrainingServer } from '../../src/workflows/safety-training/definition.server';
import { findWorkflow } from '../../src/workflows/registry';
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

  it('is registered with its grader, so the server grades the quiz', () => {
    expect(findWorkflow('safety-training')?.definition).toBe(safetyTraining);
    expect(workflows.find((workflow) => workflow.definition.id === 'safety-training')?.server).toBe(safetyTrainingServer);
  });
});
