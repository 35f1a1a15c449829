import { useState, type FormEvent } from 'react';
import {
  Button,
  Choice,
  ChoiceGroup,
  FocusHeading,
  useShellTexts,
  invalidFields,
  type StepScreenProps,
} from '@partner-task-kit/page/screens';
import { shiftIds, shiftsDataSchema, WEEKENDS_PER_MONTH, type ShiftId, type ShiftsData } from '../definition';
import type { AvailabilityTexts } from '../texts';

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
export default function ShiftsStep({ texts, headingId, focusHeading, saving, savedData, onSubmit }: StepScreenProps<AvailabilityTexts>) {
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

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.shifts}
      </FocusHeading>
      <form onSubmit={submit} noValidate>
        <ChoiceGroup id="shifts" legend={texts.shifts.legend} hint={texts.shifts.hint} error={shows('shifts') && texts.shifts.mustChoose}>
          {shiftIds.map((shift) => (
            <Choice
              key={shift}
              id={`shift-${shift}`}
              type="checkbox"
              name="shifts"
              value={shift}
              label={texts.shifts.names[shift]}
              checked={shifts.includes(shift)}
              onChange={(event) => toggle(shift, event.target.checked)}
            />
          ))}
        </ChoiceGroup>
        {night && (
          <ChoiceGroup
            id="transport"
            conditional
            legend={texts.shifts.transport.legend}
            error={shows('transportAfterMidnight') && texts.shifts.transport.mustAnswer}
          >
            {([true, false] as const).map((answer) => (
              <Choice
                key={String(answer)}
                id={answer ? 'transport-yes' : 'transport-no'}
                type="radio"
                name="transport"
                label={answer ? texts.shifts.transport.yes : texts.shifts.transport.no}
                checked={transport === answer}
                onChange={() => setTransport(answer)}
              />
            ))}
          </ChoiceGroup>
        )}
        {weekend && (
          <ChoiceGroup
            id="weekends"
            conditional
            legend={texts.shifts.weekends.legend}
            error={shows('weekendsPerMonth') && texts.shifts.weekends.mustAnswer}
          >
            {weekendCounts.map((count) => (
              <Choice
                key={count}
                id={`weekends-${count}`}
                type="radio"
                name="weekends"
                label={texts.shifts.weekends.option(count)}
                checked={weekends === count}
                onChange={() => setWeekends(count)}
              />
            ))}
          </ChoiceGroup>
        )}
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.shifts.continue}
        </Button>
      </form>
    </section>
  );
}
