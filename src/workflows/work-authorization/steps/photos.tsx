import { useEffect, useMemo, useState, type FormEvent } from 'react';
import {
  FileField,
  type FileFieldState,
  Button,
  FocusHeading,
  useShellTexts,
  refused,
  type StepScreenProps,
} from '@partner-task-kit/page/screens';
import { documentPhotoRule, workAuthorizationSchemas } from '../definition';
import type { WorkAuthorizationTexts } from '../texts';

const schema = workAuthorizationSchemas.photos;
const sides = ['front', 'back'] as const;
type Side = (typeof sides)[number];

/**
 * A photo of each side of the document: each a file field (packages/page/src/task/file-field.tsx) whose answer is the id of its
 * completed upload. Like every step's screen, a chunk of its own (docs/architecture.md#a-workflow-is-a-folder), here
 * with tus-js-client: it loads while the worker answers an earlier step, never with the first screen.
 */
export default function PhotosStep({
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
  // What the server holds for each side: the saved answer, then what this screen sent.
  const [sent, setSent] = useState<Partial<Record<Side, string>>>(() => schema.safeParse(savedData).data ?? {});
  const [fields, setFields] = useState<Record<Side, FileFieldState>>(() => ({
    front: { uploadId: sent.front, uploading: false },
    back: { uploadId: sent.back, uploading: false },
  }));
  const [tried, setTried] = useState(false);
  const changes = useMemo(
    () => ({
      front: (state: FileFieldState) => setFields((now) => ({ ...now, front: state })),
      back: (state: FileFieldState) => setFields((now) => ({ ...now, back: state })),
    }),
    [],
  );

  const problemOf = (side: Side) => {
    const field = fields[side];
    if (field.uploading) return texts.photos.stillUploading;
    if (field.uploadId === undefined) return side === 'front' ? texts.photos.missingFront : texts.photos.missingBack;
    // The server refused the id sent (no longer kept, another attempt's): shown until another photo replaces it.
    if (refused(refusal, side) && field.uploadId === sent[side]) return texts.photos.refused;
    return undefined;
  };

  // The server refused a side: the worker's focus goes to it, where its message is read out.
  useEffect(() => {
    const side = sides.find((candidate) => refused(refusal, candidate));
    if (side) document.getElementById(`photos-${side}`)?.focus();
  }, [refusal]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    const { front, back } = fields;
    const first = sides.find((side) => problemOf(side) !== undefined);
    if (first || front.uploadId === undefined || back.uploadId === undefined) {
      return document.getElementById(`photos-${first ?? 'front'}`)?.focus();
    }
    setSent({ front: front.uploadId, back: back.uploadId });
    onSubmit({ front: front.uploadId, back: back.uploadId });
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.photos}
      </FocusHeading>
      <p>{texts.photos.intro}</p>
      <form onSubmit={submit} noValidate>
        {sides.map((side) => {
          const problem = problemOf(side);
          return (
            <FileField
              key={side}
              id={`photos-${side}`}
              label={side === 'front' ? texts.photos.frontLabel : texts.photos.backLabel}
              hint={side === 'front' ? texts.photos.frontHint : texts.photos.backHint}
              error={(tried || refused(refusal, side)) && problem}
              rule={documentPhotoRule}
              target={{ attempt: task.attempt, stepId, field: side }}
              value={fields[side].uploadId}
              onChange={changes[side]}
            />
          );
        })}
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.submit}
        </Button>
      </form>
    </section>
  );
}
