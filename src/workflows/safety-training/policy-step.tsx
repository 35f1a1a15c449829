import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button';
import { FocusHeading } from '../../ui/focus-heading';
import { useShellTexts } from '../../ui/i18n/locale-context';
import type { StepViewProps } from '../step-view-props';
import { POLICY_VERSION, policyDataSchema } from './definition';
import type { SafetyTrainingTexts } from './texts';

export function PolicyStep({
  texts,
  headingId,
  focusHeading,
  saving,
  savedData,
  onSubmit,
}: StepViewProps & { texts: SafetyTrainingTexts }) {
  const savingText = useShellTexts().saving;
  const saved = policyDataSchema.safeParse(savedData);
  const [acknowledged, setAcknowledged] = useState(saved.success);
  const [showError, setShowError] = useState(false);
  const checkbox = useRef<HTMLInputElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!acknowledged) {
      setShowError(true);
      checkbox.current?.focus();
      return;
    }
    onSubmit({ acknowledged: true, policyVersion: POLICY_VERSION });
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.policy}
      </FocusHeading>
      <p className="muted">{texts.policy.version(POLICY_VERSION)}</p>
      <div className="policy" role="document" aria-label={texts.stepTitles.policy}>
        {texts.policy.sections.map((section) => (
          <section key={section.title} className="policy-section">
            <h2>{section.title}</h2>
            <p>{section.body}</p>
          </section>
        ))}
      </div>
      <form onSubmit={submit} noValidate>
        <div className={`check${showError && !acknowledged ? ' field-invalid' : ''}`}>
          <input
            ref={checkbox}
            id="policy-ack"
            type="checkbox"
            checked={acknowledged}
            aria-invalid={showError && !acknowledged}
            aria-describedby={showError && !acknowledged ? 'policy-ack-error' : undefined}
            onChange={(event) => setAcknowledged(event.target.checked)}
          />
          <label htmlFor="policy-ack">{texts.policy.acknowledge}</label>
        </div>
        {showError && !acknowledged && (
          <p id="policy-ack-error" className="field-error">
            {texts.policy.mustAcknowledge}
          </p>
        )}
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.policy.continue}
        </Button>
      </form>
    </section>
  );
}
