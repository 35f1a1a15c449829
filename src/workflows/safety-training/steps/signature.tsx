import { useRef, useState, type FormEvent } from 'react';
import { Button, CheckField, FocusHeading, useShellTexts, InputField, type StepScreenProps } from '@partner-task-kit/page/screens';
import { signatureDataSchema } from '../definition';
import type { SafetyTrainingTexts } from '../texts';

/** A typed-name signature; saving it completes the task (the server sends `completed`). */
export default function SignatureStep({ texts, headingId, focusHeading, saving, onSubmit }: StepScreenProps<SafetyTrainingTexts>) {
  const savingText = useShellTexts().saving;
  const [fullName, setFullName] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [tried, setTried] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const confirmInput = useRef<HTMLInputElement>(null);

  const nameValid = signatureDataSchema.shape.fullName.safeParse(fullName).success;
  const nameError = tried && !nameValid;
  const confirmError = tried && !confirmed;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!nameValid) return nameInput.current?.focus();
    if (!confirmed) return confirmInput.current?.focus();
    onSubmit({ fullName: fullName.trim(), confirmed: true });
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.signature}
      </FocusHeading>
      <p>{texts.signature.intro}</p>
      <form onSubmit={submit} noValidate>
        <InputField
          ref={nameInput}
          id="signature-name"
          label={texts.signature.nameLabel}
          hint={texts.signature.nameHint}
          error={nameError ? texts.signature.nameRequired : undefined}
          autoComplete="name"
          maxLength={120}
          value={fullName}
          onChange={(event) => setFullName(event.target.value)}
        />
        <CheckField
          ref={confirmInput}
          id="signature-confirm"
          label={texts.signature.confirm}
          error={confirmError ? texts.signature.mustConfirm : undefined}
          checked={confirmed}
          onChange={(event) => setConfirmed(event.target.checked)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.signature.submit}
        </Button>
      </form>
    </section>
  );
}
