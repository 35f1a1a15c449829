import { useRef, useState, type FormEvent } from 'react';
import {
  Button,
  CheckField,
  FocusHeading,
  useShellTexts,
  InputField,
  invalidFields,
  type StepScreenProps,
} from '@partner-task-kit/page/screens';
import { consentDataSchema } from '../definition';
import type { BackgroundCheckTexts } from '../texts';

/** The worker's name and consent: saving it hands the task to the partner's check (the next step). */
export default function ConsentStep({
  texts,
  headingId,
  focusHeading,
  saving,
  savedData,
  onSubmit,
}: StepScreenProps<BackgroundCheckTexts>) {
  const savingText = useShellTexts().saving;
  const saved = consentDataSchema.safeParse(savedData);
  const [fullName, setFullName] = useState(saved.success ? saved.data.fullName : '');
  const [agree, setAgree] = useState(saved.success);
  const [tried, setTried] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const agreeInput = useRef<HTMLInputElement>(null);

  // Checked with the schema the server applies, so the page and the server never disagree on what is valid.
  const data = { fullName: fullName.trim(), agree };
  const invalid = invalidFields(consentDataSchema, data);
  const shows = (field: string) => tried && invalid.has(field);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    // Focus goes to the first field in error, in screen order: its message is read out with it.
    if (invalid.has('fullName')) return nameInput.current?.focus();
    if (invalid.has('agree')) return agreeInput.current?.focus();
    onSubmit(data);
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.consent}
      </FocusHeading>
      <p>{texts.consent.intro}</p>
      <form onSubmit={submit} noValidate>
        <InputField
          ref={nameInput}
          id="consent-name"
          type="text"
          autoComplete="name"
          label={texts.consent.nameLabel}
          hint={texts.consent.nameHint}
          error={shows('fullName') && texts.consent.nameError}
          value={fullName}
          onChange={(event) => setFullName(event.target.value)}
        />
        <CheckField
          ref={agreeInput}
          id="consent-agree"
          label={texts.consent.agreeLabel}
          error={shows('agree') && texts.consent.agreeError}
          checked={agree}
          onChange={(event) => setAgree(event.target.checked)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.consent.submit}
        </Button>
      </form>
    </section>
  );
}
