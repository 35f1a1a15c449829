import { useRef, useState, type FormEvent } from 'react';
import { Button, Choice, ChoiceGroup, FocusHeading, useShellTexts, type StepScreenProps } from '@partner-task-kit/page/screens';
import type { WorkAuthorizationTexts } from '../texts';

/**
 * Yes or no: the answer decides the path, a national ID for citizens, a document for everyone else (definition.ts).
 * The first screen of a link: it reads no schema, so the definition and its checks load with the later steps.
 */
export default function CitizenshipStep({
  texts,
  headingId,
  focusHeading,
  saving,
  savedData,
  refusal,
  onSubmit,
}: StepScreenProps<WorkAuthorizationTexts>) {
  const savingText = useShellTexts().saving;
  const [citizen, setCitizen] = useState<boolean | undefined>(savedCitizen(savedData));
  const [tried, setTried] = useState(false);
  const yesInput = useRef<HTMLInputElement>(null);
  const invalid = (tried && citizen === undefined) || refusal?.field === 'data.citizen';

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (citizen === undefined) return yesInput.current?.focus();
    onSubmit({ citizen });
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.citizenship}
      </FocusHeading>
      <p>{texts.citizenship.intro}</p>
      <form onSubmit={submit} noValidate>
        <ChoiceGroup id="citizen" legend={texts.citizenship.legend} error={invalid && texts.citizenship.error}>
          {([true, false] as const).map((answer) => (
            <Choice
              key={String(answer)}
              ref={answer ? yesInput : undefined}
              id={answer ? 'citizen-yes' : 'citizen-no'}
              type="radio"
              name="citizen"
              label={answer ? texts.citizenship.yes : texts.citizenship.no}
              checked={citizen === answer}
              onChange={() => setCitizen(answer)}
            />
          ))}
        </ChoiceGroup>
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.submit}
        </Button>
      </form>
    </section>
  );
}

function savedCitizen(savedData: unknown): boolean | undefined {
  if (typeof savedData !== 'object' || savedData === null || !('citizen' in savedData)) return undefined;
  return typeof savedData.citizen === 'boolean' ? savedData.citizen : undefined;
}
