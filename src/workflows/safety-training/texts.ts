import type { QuizOptionId, QuizQuestionId, SafetyTrainingStepId } from './definition';

/** Every text the worker sees in this workflow; one file per language. */
export interface SafetyTrainingTexts {
  stepTitles: Record<SafetyTrainingStepId, string>;
  welcome: {
    intro: string;
    estimate(minutes: number): string;
    /** Introduces the outline; the count is the definition's, the one the progress header counts too. */
    stepCount(count: number): string;
    /** One line per step of definition.ts, this introduction included, as the worker will meet them. */
    outline: Record<SafetyTrainingStepId, string>;
    begin: string;
  };
  policy: {
    version(version: string): string;
    sections: readonly { title: string; body: string }[];
    acknowledge: string;
    mustAcknowledge: string;
    continue: string;
  };
  quiz: {
    intro(passMark: number, total: number, maxAttempts: number): string;
    questions: Record<QuizQuestionId, { text: string; options: Record<QuizOptionId, string> }>;
    unanswered(count: number): string;
    submit: string;
    failed(score: number, total: number, passMark: number, attemptsLeft: number): string;
    attemptsUsed(used: number, max: number): string;
  };
  /** The workflow's own failure screen (failed-screen.tsx): the quiz is the one step that can fail it. */
  failed: {
    title: string;
    quizNotPassed(maxAttempts: number): string;
  };
  signature: {
    intro: string;
    nameLabel: string;
    nameHint: string;
    nameRequired: string;
    confirm: string;
    mustConfirm: string;
    submit: string;
  };
}
