import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { FocusHeading } from '../../ui/focus-heading';
import { useShellTexts } from '../../ui/i18n/locale-context';
import type { StepViewProps } from '../step-view-props';
import { shiftIds, shiftsDataSchema, WEEKENDS_PER_MONTH, type ShiftId, type ShiftsData } from './definition';
import { invalidFields } from './field-errors';
import type { AvailabilityTexts } from './texts';

const weekendCounts = Array.from(
  { length: WEEKENDS_PER_MONTH.max - WEEKENDS_PER_MONTH.min + 1 },
  (_, index) => WEEKENDS_PER_MONTH.min + index,
);

/** Where focus goes for each invalid field, in the order the fields appear on the screen. */
const firstInputOf = [
  ['shifts', `shift-${shiftIds[0]}`],
  ['transportAfterMidnight', 'transport-yes'],
  ['weekendsPerMonth', `weekends-${WEEKENDS_PER_MONTH.min}`],
] as const;

/**
 * The shifts the worker can take. Choosing nights asks about transport home, choosing weekends asks how many a month:
 * each question appears right after the shifts, in reading and tab order, only while its shift is ticked, and only
 * then is its answer sent (the schema refuses an answer without its shift).
 */
export function ShiftsStep({ texts, headingId, focusHeading, saving, savedData, onSubmit }: StepViewProps & { texts: AvailabilityTexts }) {
  const savingText = useShellTexts().saving;
  const saved = shiftsDataSchema.safeParse(savedData);
  const [shifts, setShifts] = useState<readonly ShiftId[]>(saved.success ? saved.data.shifts : []);
  const [transport, setTransport] = useState<boolean | undefined>(saved.success ? saved.data.transportAfterMidnight : undefined);
  const [weekends, setWeekends] = useState<number | undefined>(saved.success ? saved.data.weekendsPerMonth : undefined);
  const [tried, setTried] = useState(false);

  const night = shifts.includes('night');
  const weekend = shifts.includes('weekend');
  const data: ShiftsData = {
    // In the screen's order, whatever the order of the clicks.
    shifts: shiftIds.filter((shift) => shifts.includes(shift)),
    ...(night && transport !== undefined ? { transportAfterMidnight: transport } : {}),
    ...(weekend && weekends !== undefined ? { weekendsPerMonth: weekends } : {}),
  };
  const invalid = invalidFields(shiftsDataSchema, data);
  const shows = (field: string) => tried && invalid.has(field);

  function toggle(shift: ShiftId, checked: boolean) {
    setShifts((current) => (checked ? [...current, shift] : current.filter((other) => other !== shift)));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    const first = firstInputOf.find(([field]) => invalid.has(field));
    if (first) return document.getElementById(first[1])?.focus();
    onSubmit(data);
  }

  const describedBy = (hint: string | undefined, field: string, errorId: string) =>
    [hint, shows(field) ? errorId : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.shifts}
      </FocusHeading>
      <form onSubmit={submit} noValidate>
        <fieldset
          className={`question${shows('shifts') ? ' field-invalid' : ''}`}
          aria-describedby={describedBy('shifts-hint', 'shifts', 'shifts-error')}
        >
          <legend>{texts.shifts.legend}</legend>
          <p id="shifts-hint" className="hint">
            {texts.shifts.hint}
          </p>
          {shows('shifts') && (
            <p id="shifts-error" className="field-error">
              {texts.shifts.mustChoose}
            </p>
          )}
          {shiftIds.map((shift) => (
            <div key={shift} className="check">
              <input
                id={`shift-${shift}`}
                type="checkbox"
                name="shifts"
                value={shift}
                checked={shifts.includes(shift)}
                onChange={(event) => toggle(shift, event.target.checked)}
              />
              <label htmlFor={`shift-${shift}`}>{texts.shifts.names[shift]}</label>
            </div>
          ))}
        </fieldset>
        {night && (
          <fieldset
            className={`question conditional${shows('transportAfterMidnight') ? ' field-invalid' : ''}`}
            aria-describedby={describedBy(undefined, 'transportAfterMidnight', 'transport-error')}
          >
            <legend>{texts.shifts.transport.legend}</legend>
            {shows('transportAfterMidnight') && (
              <p id="transport-error" className="field-error">
                {texts.shifts.transport.mustAnswer}
              </p>
            )}
            {([true, false] as const).map((answer) => {
              const id = answer ? 'transport-yes' : 'transport-no';
              return (
                <div key={id} className="choice">
                  <input id={id} type="radio" name="transport" checked={transport === answer} onChange={() => setTransport(answer)} />
                  <label htmlFor={id}>{answer ? texts.shifts.transport.yes : texts.shifts.transport.no}</label>
                </div>
              );
            })}
          </fieldset>
        )}
        {weekend && (
          <fieldset
            className={`question conditional${shows('weekendsPerMonth') ? ' field-invalid' : ''}`}
            aria-describedby={describedBy(undefined, 'weekendsPerMonth', 'weekends-error')}
          >
            <legend>{texts.shifts.weekends.legend}</legend>
            {shows('weekendsPerMonth') && (
              <p id="weekends-error" className="field-error">
                {texts.shifts.weekends.mustAnswer}
              </p>
            )}
            {weekendCounts.map((count) => (
              <div key={count} className="choice">
                <input
                  id={`weekends-${count}`}
                  type="radio"
                  name="weekends"
                  checked={weekends === count}
                  onChange={() => setWeekends(count)}
                />
                <label htmlFor={`weekends-${count}`}>{texts.shifts.weekends.option(count)}</label>
              </div>
            ))}
          </fieldset>
        )}
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.shifts.continue}
        </Button>
      </form>
    </section>
  );
}
