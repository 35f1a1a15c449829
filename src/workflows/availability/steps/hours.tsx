import { useRef, useState, type FormEvent } from 'react';
import {
  Button,
  FocusHeading,
  useShellTexts,
  InputField,
  TextAreaField,
  invalidFields,
  type StepScreenProps,
} from '@partner-task-kit/page/screens';
import { hoursDataSchema, NOTE_MAX_CHARS, WEEKLY_HOURS, type HoursData } from '../definition';
import type { AvailabilityTexts } from '../texts';

/** Digits only: "8.5", "1e1" or "" are not a whole number of hours, and the schema then says the field is missing. */
function wholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d{1,3}$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** The last step: the most hours a week and an optional note. Saving it completes the task (the server sends `completed`). */
export default function HoursStep({ texts, headingId, focusHeading, saving, savedData, onSubmit }: StepScreenProps<AvailabilityTexts>) {
  const savingText = useShellTexts().saving;
  const saved = hoursDataSchema.safeParse(savedData);
  const [hours, setHours] = useState(saved.success ? String(saved.data.maxWeeklyHours) : '');
  const [note, setNote] = useState(saved.success ? (saved.data.note ?? '') : '');
  const [tried, setTried] = useState(false);
  const hoursInput = useRef<HTMLInputElement>(null);
  const noteInput = useRef<HTMLTextAreaElement>(null);

  const maxWeeklyHours = wholeNumber(hours);
  const trimmedNote = note.trim();
  const data: Partial<HoursData> = {
    ...(maxWeeklyHours === undefined ? {} : { maxWeeklyHours }),
    ...(trimmedNote === '' ? {} : { note: trimmedNote }),
  };
  const invalid = invalidFields(hoursDataSchema, data);
  const hoursError = tried && invalid.has('maxWeeklyHours');
  const noteError = tried && invalid.has('note');
  const noteLength = Array.from(note).length;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (invalid.has('maxWeeklyHours')) return hoursInput.current?.focus();
    if (invalid.has('note')) return noteInput.current?.focus();
    onSubmit(data);
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.hours}
      </FocusHeading>
      <form onSubmit={submit} noValidate>
        {/* Text with a numeric keyboard rather than type="number", which changes its value on a scroll and accepts "1e1". */}
        <InputField
          ref={hoursInput}
          id="weekly-hours"
          width="short"
          inputMode="numeric"
          autoComplete="off"
          label={texts.hours.hoursLabel}
          hint={texts.hours.hoursHint(WEEKLY_HOURS.min, WEEKLY_HOURS.max)}
          error={hoursError ? texts.hours.hoursError(WEEKLY_HOURS.min, WEEKLY_HOURS.max) : undefined}
          value={hours}
          onChange={(event) => setHours(event.target.value)}
        />
        {/* No maxLength: a pasted note that is too long is shown whole and explained, not silently cut. */}
        <TextAreaField
          ref={noteInput}
          id="availability-note"
          rows={4}
          label={texts.hours.noteLabel}
          hint={texts.hours.noteHint}
          error={noteError ? texts.hours.noteTooLong(NOTE_MAX_CHARS) : undefined}
          count={texts.hours.noteCount(noteLength, NOTE_MAX_CHARS)}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.hours.submit}
        </Button>
      </form>
    </section>
  );
}
