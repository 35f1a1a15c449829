import { useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Button, FocusHeading, useShellTexts, InputField, type StepScreenProps } from '@partner-task-kit/page/screens';
import { localDay, startDataSchema, startDateProblem, startDateRange } from '../definition.start-date';
import type { AvailabilityTexts } from '../texts';

/** The first day the worker can work: a native date picker, limited to today up to one year ahead. */
export default function StartStep({
  task,
  texts,
  headingId,
  focusHeading,
  saving,
  savedData,
  onSubmit,
}: StepScreenProps<AvailabilityTexts>) {
  const savingText = useShellTexts().saving;
  const saved = startDataSchema.safeParse(savedData);
  const [startDate, setStartDate] = useState(saved.success ? saved.data.startDate : '');
  const [tried, setTried] = useState(false);
  // The worker's own today; the server checks again with any time zone's today. null while rendered at build time and
  // while that markup hydrates: the date picker gets its bounds in the render right after, so the HTML, the same on
  // every day, matches what hydrates (docs/architecture.md#the-page-build).
  const today = useSyncExternalStore(neverChanges, workerToday, () => null);
  const input = useRef<HTMLInputElement>(null);
  const range = startDateRange(today ?? workerToday());
  const error = tried ? startDateProblem(startDate, range) : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (startDateProblem(startDate, range)) return input.current?.focus();
    onSubmit({ startDate });
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.start}
      </FocusHeading>
      <p>{texts.start.intro}</p>
      <p className="estimate">{texts.start.estimate(task.workflow.estimatedMinutes)}</p>
      <form onSubmit={submit} noValidate>
        <InputField
          ref={input}
          id="start-date"
          type="date"
          label={texts.start.dateLabel}
          hint={texts.start.dateHint}
          error={error && texts.start.errors[error]}
          min={today === null ? undefined : range.min}
          max={today === null ? undefined : range.max}
          value={startDate}
          onChange={(event) => setStartDate(event.target.value)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.start.continue}
        </Button>
      </form>
    </section>
  );
}

function workerToday(): string {
  return localDay(new Date());
}

/** Today is read at each render; nothing needs to render again when it turns. */
function neverChanges(): () => void {
  return () => {};
}
