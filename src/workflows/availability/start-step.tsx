import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { FocusHeading } from '../../ui/focus-heading';
import { useShellTexts } from '../../ui/i18n/locale-context';
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
        <div className={`field${error ? ' field-invalid' : ''}`}>
          <label htmlFor="start-date">{texts.start.dateLabel}</label>
          <p id="start-date-hint" className="hint">
            {texts.start.dateHint}
          </p>
          {error && (
            <p id="start-date-error" className="field-error">
              {texts.start.errors[error]}
            </p>
          )}
          <input
            ref={input}
            id="start-date"
            type="date"
            min={range.min}
            max={range.max}
            value={startDate}
            aria-invalid={error !== undefined}
            aria-describedby={error ? 'start-date-hint start-date-error' : 'start-date-hint'}
            onChange={(event) => setStartDate(event.target.value)}
          />
        </div>
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.start.continue}
        </Button>
      </form>
    </section>
  );
}
