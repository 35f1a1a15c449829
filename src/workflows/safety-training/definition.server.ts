import type { Grade, WorkflowServerModule } from '@partner-task-kit/workflow';
import { quizDataSchema, type QuizOptionId, type QuizQuestionId } from './definition';

/**
 * Server only (the `.server.ts` suffix; the page build refuses to import it, see packages/vite-plugin). The answer key
 * and the reasons behind it must never reach the browser, or the quiz grades nothing.
 */
const answerKey: Record<QuizQuestionId, { correct: QuizOptionId; rationale: string }> = {
  exits: { correct: 'b', rationale: 'Emergency exits and their routes must stay clear at every moment of a shift.' },
  spill: { correct: 'a', rationale: 'A spill is marked off first so that nobody slips while it is being reported.' },
  ppe: { correct: 'c', rationale: 'Protective equipment is checked before each use and replaced when damaged.' },
  injury: { correct: 'a', rationale: 'Every injury, however small, is reported to the supervisor the same day.' },
  lifting: { correct: 'b', rationale: 'Loads are lifted with bent knees and a straight back, close to the body.' },
};

function gradeQuiz(data: unknown): Grade {
  const { answers } = quizDataSchema.parse(data);
  const questions = Object.keys(answerKey) as QuizQuestionId[];
  const score = questions.filter((question) => answers[question] === answerKey[question].correct).length;
  return { score, total: questions.length };
}

/** Exported for the test that proves none of these texts is in the built page. */
export const answerRationales = Object.values(answerKey).map((entry) => entry.rationale);

export const safetyTrainingServer: WorkflowServerModule = {
  graders: { quiz: gradeQuiz },
};

// What the kit finds in this folder (docs/architecture.md#a-workflow-is-a-folder).
export default safetyTrainingServer;
