import { useRef, useState, type FormEvent } from 'react';
import {
  Button,
  FocusHeading,
  useShellTexts,
  InputField,
  invalidFields,
  refused,
  type StepScreenProps,
} from '@partner-task-kit/page/screens';
import { workAuthorizationSchemas } from '../definition';
import type { WorkAuthorizationTexts } from '../texts';

const schema = workAuthorizationSchemas['national-id'];

/**
 * A sensitive value (docs/connecting-your-backend.md#sensitive-values): the server keeps it sealed and the task shows
 * it masked ("••••CD"). The input never starts with the mask, which would be sent back as the number: after "Back"
 * it starts empty, with a hint that a number ending in those characters is saved and is typed again to go on.
 */
export default function NationalIdStep({
  texts,
  headingId,
  focusHeading,
  saving,
  savedData,
  refusal,
  onSubmit,
}: StepScreenProps<WorkAuthorizationTexts>) {
  const savingText = useShellTexts().saving;
  const [nationalId, setNationalId] = useState('');
  const [tried, setTried] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const savedMask = maskedValue(savedData);

  const data = { nationalId };
  const invalid = invalidFields(schema, data);
  const shows = (tried && invalid.has('nationalId')) || refused(refusal, 'nationalId');

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (invalid.has('nationalId')) return input.current?.focus();
    onSubmit(data);
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles['national-id']}
      </FocusHeading>
      <form onSubmit={submit} noValidate>
        <InputField
          ref={input}
          id="national-id"
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          label={texts.nationalId.label}
          hint={savedMask === undefined ? texts.nationalId.hint : `${texts.nationalId.hint} ${texts.nationalId.saved(savedMask.slice(-2))}`}
          error={shows && texts.nationalId.error}
          value={nationalId}
          onChange={(event) => setNationalId(event.target.value)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.submit}
        </Button>
      </form>
    </section>
  );
}

/** The saved number as the task shows it, masked ("••••CD"), or undefined when none is saved. */
function maskedValue(savedData: unknown): string | undefined {
  if (typeof savedData !== 'object' || savedData === null || !('nationalId' in savedData)) return undefined;
  const value = savedData.nationalId;
  return typeof value === 'string' && value.length >= 2 ? value : undefined;
}
