import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Choice, ChoiceGroup, FocusHeading, useShellTexts, Notice, type StepScreenProps } from '@partner-task-kit/page/screens';
import { QUIZ_RULES, quizDataSchema, quizOptionIds, quizQuestionIds, type QuizOptionId, type QuizQuestionId } from '../definition';
import type { SafetyTrainingTexts } from '../texts';

type Answers = Partial<Record<QuizQuestionId, QuizOptionId>>;

/** Graded on the server: the page knows the questions and options, never which option is right. */
export default function QuizStep({
  texts,
  headingId,
  focusHeading,
  saving,
  savedData,
  grading,
  task,
  onSubmit,
}: StepScreenProps<SafetyTrainingTexts>) {
  const savingText = useShellTexts().saving;
  const saved = quizDataSchema.safeParse(savedData);
  const [answers, setAnswers] = useState<Answers>(saved.success ? saved.data.answers : {});
  const [showMissing, setShowMissing] = useState(false);
  const unanswered = quizQuestionIds.filter((id) => answers[id] === undefined);
  const used = task.gradedAttempts.quiz?.used ?? 0;
  const failedAttempt = grading && !grading.passed ? grading : undefined;
  const result = useRef<HTMLDivElement>(null);
  // A failed attempt's result goes where the worker is: beside the button just pressed (at the foot of a long form on
  // a phone, far below the heading), and focus moves to it, so it is read out and in view without scrolling. Each
  // answer is a new object, so a second failure with the same score takes the focus again.
  useEffect(() => {
    if (failedAttempt) result.current?.focus();
  }, [failedAttempt]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (unanswered.length > 0) {
      setShowMissing(true);
      document.getElementById(`quiz-${unanswered[0]}-a`)?.focus();
      return;
    }
    onSubmit({ answers });
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.quiz}
      </FocusHeading>
      <p>{texts.quiz.intro(QUIZ_RULES.passMark, quizQuestionIds.length, QUIZ_RULES.maxAttempts)}</p>
      <p className="muted">{texts.quiz.attemptsUsed(used, QUIZ_RULES.maxAttempts)}</p>
      <form onSubmit={submit} noValidate>
        {quizQuestionIds.map((id, index) => {
          const question = texts.quiz.questions[id];
          const missing = showMissing && answers[id] === undefined;
          return (
            // One message below the questions counts the unanswered ones; each of them points at it.
            <ChoiceGroup
              key={id}
              id={`quiz-${id}`}
              legend={`${index + 1}. ${question.text}`}
              invalid={missing}
              sharedErrorId="quiz-missing"
            >
              {quizOptionIds.map((option) => (
                <Choice
                  key={option}
                  id={`quiz-${id}-${option}`}
                  type="radio"
                  name={`quiz-${id}`}
                  value={option}
                  label={question.options[option]}
                  checked={answers[id] === option}
                  onChange={() => setAnswers((current) => ({ ...current, [id]: option }))}
                />
              ))}
            </ChoiceGroup>
          );
        })}
        {showMissing && unanswered.length > 0 && (
          <p id="quiz-missing" className="field-error" role="alert">
            {texts.quiz.unanswered(unanswered.length)}
          </p>
        )}
        <Notice tone="error" ref={result} focusable>
          {failedAttempt
            ? texts.quiz.failed(failedAttempt.score, failedAttempt.total, failedAttempt.passMark, failedAttempt.attemptsLeft)
            : undefined}
        </Notice>
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.quiz.submit}
        </Button>
      </form>
    </section>
  );
}
