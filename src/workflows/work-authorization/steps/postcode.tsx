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

const schema = workAuthorizationSchemas.postcode;

/** Where the worker lives: the offer of appointment slots (the next step) is loaded for it. */
export default function PostcodeStep({
  texts,
  headingId,
  focusHeading,
  saving,
  savedData,
  refusal,
  onSubmit,
}: StepScreenProps<WorkAuthorizationTexts>) {
  const savingText = useShellTexts().saving;
  const saved = schema.safeParse(savedData);
  const [postcode, setPostcode] = useState(saved.success ? saved.data.postcode : '');
  const [tried, setTried] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const data = { postcode: postcode.trim() };
  const invalid = invalidFields(schema, data);
  const shows = (tried && invalid.has('postcode')) || refused(refusal, 'postcode');

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (invalid.has('postcode')) return input.current?.focus();
    onSubmit(data);
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.postcode}
      </FocusHeading>
      <form onSubmit={submit} noValidate>
        <InputField
          ref={input}
          id="postcode"
          type="text"
          autoComplete="postal-code"
          width="short"
          label={texts.postcode.label}
          hint={texts.postcode.hint}
          error={shows && texts.postcode.error}
          value={postcode}
          onChange={(event) => setPostcode(event.target.value)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.submit}
        </Button>
      </form>
    </section>
  );
}
