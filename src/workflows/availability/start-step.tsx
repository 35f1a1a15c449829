import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { FocusHeading } from '../../ui/focus-heading';
import { useShellTexts } from '../../ui/i18n/locale-context';
import { InputField } from '../../ui/input-field';
import type { StepViewProps } from '../step-view-props';
import { availability, localDay, startDataSchema, startDateProblem, startDateRange } from './definition';
import type { AvailabilityTexts } from './texts';

/** The first day the worker can work: a native date picker, limited to today up to one year ahead. */
export function StartStep({ texts, headingId, focusHeading, saving, savedData, onSubmit }: StepViewProps & { texts: AvailabilityTexts }) {
  const savingText = useShellTexts().saving;
  const saved = startDataSchema.safeParse(savedData);
  const [startDate, setStartDate] = useState(saved.success ? saved.data.startDate : '');
  const [tried, setTried] = useState(false);
  // The worker's own today, read when the screen appears; the server checks again with any time zone's today.
  const [range] = useState(() => startDateRange(localDay(new Date())));
  const input = useRef<HTMLInputElement>(null);
  const problem = startDateProblem(startDate, range);
  const error = tried ? problem : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (problem) return input.current?.focus();
    onSubmit({ startDate });
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.start}
      </FocusHeading>
      <p>{texts.start.intro}</p>
      <p className="estimate">{texts.start.estimate(availability.estimatedMinutes)}</p>
      <form onSubmit={submit} noValidate>
        <InputField
          ref={input}
          id="start-date"
          type="date"
          label={texts.start.dateLabel}
          hint={texts.start.dateHint}
          error={error && texts.start.errors[error]}
          min={range.min}
          max={range.max}
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
