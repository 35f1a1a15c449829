import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Button,
  FocusHeading,
  useShellTexts,
  InputField,
  SelectField,
  invalidFields,
  refused,
  type StepScreenProps,
} from '@partner-task-kit/page/screens';
import { checkOnPage } from '@partner-task-kit/workflow';
import { documentTypes, workAuthorization, workAuthorizationSchemas } from '../definition';
import type { WorkAuthorizationTexts } from '../texts';

const schema = workAuthorizationSchemas.document;

/**
 * The document and its expiry date. The step's `check` (the date after today) runs here before sending, and the
 * server's own refusal of it (400 invalid_step_data naming `data.expiryDate`) lands on the same input with the same
 * message.
 */
export default function DocumentStep({
  task,
  stepId,
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
  const [documentType, setDocumentType] = useState<string>(saved.success ? saved.data.documentType : '');
  const [expiryDate, setExpiryDate] = useState(saved.success ? saved.data.expiryDate : '');
  const [tried, setTried] = useState(false);
  const typeInput = useRef<HTMLSelectElement>(null);
  const expiryInput = useRef<HTMLInputElement>(null);

  const data = { documentType, expiryDate };
  const invalid = invalidFields(schema, data);
  const issue = invalid.size === 0 ? checkOnPage(workAuthorization, task, stepId, data) : undefined;
  const expiryPast = (tried && issue?.path[0] === 'expiryDate') || refused(refusal, 'expiryDate');
  const expiryError = tried && invalid.has('expiryDate') ? texts.document.expiryError : expiryPast && texts.document.expiryPast;

  // The server refused the date: the worker's focus goes to it, where its message is read out.
  useEffect(() => {
    if (refused(refusal, 'expiryDate')) expiryInput.current?.focus();
  }, [refusal]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (invalid.has('documentType')) return typeInput.current?.focus();
    if (invalid.has('expiryDate') || issue) return expiryInput.current?.focus();
    onSubmit(data);
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.document}
      </FocusHeading>
      <p>{texts.document.intro}</p>
      <form onSubmit={submit} noValidate>
        <SelectField
          ref={typeInput}
          id="document-type"
          label={texts.document.typeLabel}
          placeholder={texts.document.typePlaceholder}
          options={documentTypes.map((type) => ({ value: type, label: texts.document.types[type] }))}
          error={tried && invalid.has('documentType') && texts.document.typeError}
          value={documentType}
          onChange={(event) => setDocumentType(event.target.value)}
        />
        <InputField
          ref={expiryInput}
          id="document-expiry"
          type="date"
          label={texts.document.expiryLabel}
          hint={texts.document.expiryHint}
          error={expiryError}
          value={expiryDate}
          onChange={(event) => setExpiryDate(event.target.value)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.submit}
        </Button>
      </form>
    </section>
  );
}
