import { useRef, useState, type FormEvent } from 'react';
import { Button, CheckField, FocusHeading, useShellTexts, type StepScreenProps } from '@partner-task-kit/page/screens';
import { POLICY_VERSION, policyDataSchema } from '../definition';
import type { SafetyTrainingTexts } from '../texts';

export default function PolicyStep({ texts, headingId, focusHeading, saving, savedData, onSubmit }: StepScreenProps<SafetyTrainingTexts>) {
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
        <CheckField
          ref={checkbox}
          id="policy-ack"
          label={texts.policy.acknowledge}
          error={showError && !acknowledged ? texts.policy.mustAcknowledge : undefined}
          checked={acknowledged}
          onChange={(event) => setAcknowledged(event.target.checked)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.policy.continue}
        </Button>
      </form>
    </section>
  );
}
