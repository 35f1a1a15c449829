import type { QuizOptionId, QuizQuestionId } from './definition';

/** Every text the worker sees in this workflow; one file per language. */
export interface SafetyTrainingTexts {
  stepTitles: Record<'welcome' | 'policy' | 'quiz' | 'signature', string>;
  welcome: { intro: string; estimate(minutes: number): string; steps: readonly string[]; begin: string };
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
