import { z } from 'zod/mini';
import { defineStep, type WorkflowDefinition } from '@partner-task-kit/workflow';

/**
 * A workplace-safety training: welcome, policy, quiz, signature. Imported by the page and by the server, so
 * everything here is public; the quiz's answer key lives in `definition.server.ts`.
 */
const SAFETY_TRAINING_ID = 'safety-training';

/** Bump when the policy text changes: an acknowledgement names the version the worker read. */
export const POLICY_VERSION = 'SP-2026.1';

const optionIds = ['a', 'b', 'c'] as const;
export const quizQuestionIds = ['exits', 'spill', 'ppe', 'injury', 'lifting'] as const;
export type QuizQuestionId = (typeof quizQuestionIds)[number];
export type QuizOptionId = (typeof optionIds)[number];
export const quizOptionIds = optionIds;

// zod/mini, like the page's contract: these schemas ship in the page's workflow chunk.
const welcomeDataSchema = z.strictObject({});

export const policyDataSchema = z.strictObject({
  acknowledged: z.literal(true, { error: 'the policy must be acknowledged' }),
  policyVersion: z.literal(POLICY_VERSION, { error: `must be the current policy version ${POLICY_VERSION}` }),
});

const answer = z.enum(optionIds, { error: 'choose one of a, b, c' });
export const quizDataSchema = z.strictObject({
  answers: z.strictObject({ exits: answer, spill: answer, ppe: answer, injury: answer, lifting: answer }),
});

export const signatureDataSchema = z.strictObject({
  fullName: z.string().check(
    z.trim(),
    z.minLength(2, 'type your full name'),
    z.maxLength(120, 'at most 120 characters'),
    // A signature is a name, not markup or control characters.
    z.regex(/^[^\p{Cc}<>]+$/u, 'letters, spaces and punctuation only'),
  ),
  confirmed: z.literal(true, { error: 'the statement must be confirmed' }),
});

/** The ids of the steps below: each has a screen and texts in this folder. */
export type SafetyTrainingStepId = 'welcome' | 'policy' | 'quiz' | 'signature';

export const QUIZ_RULES = { passMark: 4, maxAttempts: 3 } as const;

export const safetyTraining: WorkflowDefinition<typeof SAFETY_TRAINING_ID> = {
  id: SAFETY_TRAINING_ID,
  title: 'Workplace safety training',
  estimatedMinutes: 10,
  steps: [
    defineStep({
      id: 'welcome',
      shortName: 'Welcome',
      schema: welcomeDataSchema,
      report: () => ({ color: 'neutral', details: 'The worker read the introduction and began the training.' }),
    }),
    defineStep({
      id: 'policy',
      shortName: 'Policy',
      schema: policyDataSchema,
      report: (data) => ({ color: 'neutral', details: `Safety policy ${data.policyVersion} read and acknowledged.` }),
    }),
    defineStep({
      id: 'quiz',
      shortName: 'Quiz',
      schema: quizDataSchema,
      grading: QUIZ_RULES,
      report: (_data, grade) => ({
        color: 'neutral',
        details: grade
          ? `Safety quiz passed with ${grade.score}/${grade.total} (pass mark ${QUIZ_RULES.passMark}).`
          : 'Safety quiz passed.',
      }),
    }),
    defineStep({
      id: 'signature',
      shortName: 'Signature',
      schema: signatureDataSchema,
      report: (data) => ({ color: 'success', details: `Training completed and signed as "${data.fullName}".` }),
    }),
  ],
};

// What the kit finds in this folder (docs/architecture.md#a-workflow-is-a-folder).
export default safetyTraining;
