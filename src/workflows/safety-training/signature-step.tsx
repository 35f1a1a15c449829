import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { FocusHeading } from '../../ui/focus-heading';
import { useShellTexts } from '../../ui/i18n/locale-context';
import type { StepViewProps } from '../step-view-props';
import { signatureDataSchema } from './definition';
import type { SafetyTrainingTexts } from './texts';

/** A typed-name signature; saving it completes the task (the server sends `completed`). */
export function SignatureStep({ texts, headingId, focusHeading, saving, onSubmit }: StepViewProps & { texts: SafetyTrainingTexts }) {
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
        <div className={`field${nameError ? ' field-invalid' : ''}`}>
          <label htmlFor="signature-name">{texts.signature.nameLabel}</label>
          <p id="signature-name-hint" className="hint">
            {texts.signature.nameHint}
          </p>
          <input
            ref={nameInput}
            id="signature-name"
            type="text"
            autoComplete="name"
            maxLength={120}
            value={fullName}
            aria-invalid={nameError}
            aria-describedby={nameError ? 'signature-name-hint signature-name-error' : 'signature-name-hint'}
            onChange={(event) => setFullName(event.target.value)}
          />
          {nameError && (
            <p id="signature-name-error" className="field-error">
              {texts.signature.nameRequired}
            </p>
          )}
        </div>
        <div className={`check${confirmError ? ' field-invalid' : ''}`}>
          <input
            ref={confirmInput}
            id="signature-confirm"
            type="checkbox"
            checked={confirmed}
            aria-invalid={confirmError}
            aria-describedby={confirmError ? 'signature-confirm-error' : undefined}
            onChange={(event) => setConfirmed(event.target.checked)}
          />
          <label htmlFor="signature-confirm">{texts.signature.confirm}</label>
        </div>
        {confirmError && (
          <p id="signature-confirm-error" className="field-error">
            {texts.signature.mustConfirm}
          </p>
        )}
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.signature.submit}
        </Button>
      </form>
    </section>
  );
}
