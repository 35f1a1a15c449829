import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useApiClient } from '../api/api-client-context.tsx';
import { fieldUploadQueryOptions, startUpload, type RunningUpload, type UploadProblem, type UploadTarget } from '../api/file-uploads.ts';
import { uploadedFileQueryOptions } from '../api/upload-requests.ts';
import { Button } from '../ui/button.tsx';
import { describedBy, fieldIds, hasContent } from '../ui/field-wiring.ts';
import { useLocale } from '../ui/i18n/locale-context.tsx';
import type { Locale } from '../ui/i18n/locale.ts';
import type { FileRule, FileType } from '@partner-task-kit/workflow';
import { acceptOf, fileProblem } from './file-check.ts';
import { fileFieldTexts, type FileFieldTexts } from './file-field-texts.ts';
import './file-field.css';

/** What the step's answer may hold: the id of the completed upload, and whether one is still on its way. */
export interface FileFieldState {
  uploadId: string | undefined;
  uploading: boolean;
}

/** The file chosen on this page, and where its upload is. */
interface Sending {
  file: File;
  sent: number;
  total: number;
  paused: boolean;
  uploadId?: string;
}

type Problem = { kind: 'size'; size: number } | { kind: Exclude<UploadProblem, 'size'>; file?: File };

const typeNames: Record<FileType, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/heic': 'HEIC', 'application/pdf': 'PDF' };

/**
 * A step's file field (`fileField` of the step's schema): "Take a photo" (the phone's camera) and "Choose a file", a
 * preview, a progress bar with what is left, and the upload itself (packages/page/src/api/file-uploads.ts), which goes on by itself
 * after a dropped connection and, with the same file, after a reload. A file the browser can tell is too large or of
 * another type is refused before a byte is sent; the server's refusals are said in the worker's language.
 *
 * A group (fieldset and legend) of two buttons; the file inputs themselves are hidden, pressed by the buttons. `id` is
 * the first button's (a screen focuses it for an error, `document.getElementById`); the hint and the error take
 * `<id>-hint` and `<id>-error` and are read with each button. Under the hint, each field says its own rule (the types
 * and the largest size, `<id>-rules`), from `rule` itself: a screen with two fields never leaves one of them without.
 */
export function FileField({
  id,
  label,
  hint,
  error,
  rule,
  target,
  value,
  onChange,
}: {
  id: string;
  /** Plain text: it names the preview and the progress bar too. */
  label: string;
  hint?: ReactNode;
  /** The screen's message (nothing chosen yet, the server refused the answer); the field's own refusals come first. */
  error?: ReactNode;
  rule: FileRule;
  target: UploadTarget;
  /** The upload id the step's answer holds now (the saved one, at first). */
  value: string | undefined;
  onChange(state: FileFieldState): void;
}) {
  const locale = useLocale();
  const texts = fileFieldTexts[locale];
  const client = useApiClient();
  const ids = { ...fieldIds(id), rules: `${id}-rules`, label: `${id}-label`, status: `${id}-status`, progress: `${id}-progress-text` };
  const [sending, setSending] = useState<Sending | undefined>(undefined);
  const [problem, setProblem] = useState<Problem | undefined>(undefined);
  // Once the worker picks a file, the field shows what they did, not what an earlier page load left.
  const [acted, setActed] = useState(false);
  const running = useRef<RunningUpload | undefined>(undefined);
  const cameraInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const restored = useQuery(fieldUploadQueryOptions(client, target)).data;
  useEffect(() => {
    if (!acted && restored?.kind === 'completed' && restored.uploadId !== value)
      onChange({ uploadId: restored.uploadId, uploading: false });
  }, [acted, restored, value, onChange]);
  useEffect(() => () => running.current?.abort(), []);

  function send(file: File) {
    running.current?.abort();
    setActed(true);
    setProblem(undefined);
    setSending({ file, sent: 0, total: file.size, paused: false });
    onChange({ uploadId: undefined, uploading: true });
    const update = (change: Partial<Sending>) => setSending((now) => (now?.file === file ? { ...now, ...change } : now));
    running.current = startUpload(client, file, target, {
      onProgress: (sent, total) => update({ sent, total }),
      onPaused: () => update({ paused: true }),
      onResumed: () => update({ paused: false }),
      onDone: (uploadId) => {
        update({ uploadId, sent: file.size, total: file.size, paused: false });
        onChange({ uploadId, uploading: false });
      },
      onRefused: (refusal) => {
        setSending(undefined);
        setProblem(refusal === 'size' ? { kind: 'size', size: file.size } : { kind: refusal, file });
        onChange({ uploadId: undefined, uploading: false });
      },
    });
  }

  function picked(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared, so that the same file picked again (after a refusal, or to resume after a reload) is a change again.
    event.target.value = '';
    if (!file) return;
    const found = fileProblem(file, rule);
    // The answer so far stays: nothing was sent.
    if (found === 'size') return setProblem({ kind: 'size', size: file.size });
    if (found === 'type') return setProblem({ kind: 'type' });
    send(file);
  }

  const uploading = sending !== undefined && sending.uploadId === undefined;
  const shownId = uploading ? undefined : value;
  const localFile = sending && (uploading || sending.uploadId === value) ? sending.file : undefined;
  const hasFile = uploading || shownId !== undefined;
  const ownError = problem && problemText(problem, rule, locale, texts);
  const shownError = hasContent(ownError) ? ownError : error;
  const invalid = hasContent(shownError);
  const retryFile = problem?.kind === 'failed' ? problem.file : undefined;
  const takesPhotos = rule.types.some((type) => type.startsWith('image/'));
  const buttonDescription = describedBy(hasContent(hint) && ids.hint, ids.rules, invalid && ids.error);

  let status = '';
  if (sending && uploading) status = sending.paused ? texts.paused : texts.uploading(sending.file.name);
  else if (sending?.uploadId !== undefined && sending.uploadId === value) status = texts.uploaded(sending.file.name);
  else if (!acted && restored?.kind === 'unfinished')
    status = texts.interrupted(restored.filename, percent(locale, restored.offset, restored.size));
  else if (shownId !== undefined) status = texts.saved;

  return (
    <fieldset className={`question file-field${invalid ? ' field-invalid' : ''}`}>
      <legend id={ids.label}>{label}</legend>
      {hasContent(hint) && (
        <p id={ids.hint} className="hint">
          {hint}
        </p>
      )}
      <p id={ids.rules} className="hint">
        {texts.rules(typeList(locale, rule), formatSize(locale, rule.maxBytes))}
      </p>
      {invalid && (
        <p id={ids.error} className="field-error">
          {shownError}
        </p>
      )}
      {hasFile && <FilePreview file={localFile} uploadId={shownId} label={label} texts={texts} />}
      <p id={ids.status} role="status" className="file-status">
        {status}
      </p>
      {sending && uploading && (
        <div className="file-progress">
          <progress max={sending.total} value={sending.sent} aria-labelledby={ids.label} aria-describedby={ids.progress} />
          <p id={ids.progress} className="hint">
            {texts.progress(
              formatSize(locale, sending.sent),
              formatSize(locale, sending.total),
              formatSize(locale, sending.total - sending.sent),
            )}
          </p>
          {sending.paused && (
            <Button variant="secondary" onClick={() => running.current?.resume()}>
              {texts.resumeNow}
            </Button>
          )}
        </div>
      )}
      {retryFile && (
        <Button variant="secondary" onClick={() => send(retryFile)}>
          {texts.tryAgain}
        </Button>
      )}
      <div className="file-actions">
        {takesPhotos && (
          <Button id={id} variant="secondary" aria-describedby={buttonDescription} onClick={() => cameraInput.current?.click()}>
            {hasFile ? texts.takeAnother : texts.takePhoto}
          </Button>
        )}
        <Button
          id={takesPhotos ? `${id}-choose` : id}
          variant="secondary"
          aria-describedby={buttonDescription}
          onClick={() => fileInput.current?.click()}
        >
          {hasFile ? texts.chooseAnother : texts.chooseFile}
        </Button>
      </div>
      {/* Pressed by the buttons above; hidden, so each is one press and one name, not an unlabelled control of its own. */}
      {takesPhotos && <input ref={cameraInput} type="file" accept="image/*" capture="environment" hidden tabIndex={-1} onChange={picked} />}
      <input ref={fileInput} type="file" accept={acceptOf(rule)} hidden tabIndex={-1} onChange={picked} />
    </fieldset>
  );
}

/**
 * The file chosen on this page, from the device's own copy; else the stored one (GET /api/task/uploads/:id), after a
 * reload or "Back". An image the browser cannot decode (HEIC outside Safari) shows the stored copy, a JPEG, once
 * uploaded.
 */
function FilePreview({
  file,
  uploadId,
  label,
  texts,
}: {
  file: File | undefined;
  uploadId: string | undefined;
  label: string;
  texts: FileFieldTexts;
}) {
  const client = useApiClient();
  const [undecodable, setUndecodable] = useState<File | undefined>(undefined);
  const local = file && file !== undecodable && file.type !== 'application/pdf' ? file : undefined;
  const stored = useQuery({ ...uploadedFileQueryOptions(client, uploadId ?? ''), enabled: local === undefined && uploadId !== undefined });

  if (local) return <BlobImage blob={local} alt={texts.previewAlt(label)} onError={() => setUndecodable(local)} />;
  if (uploadId === undefined) return file?.type === 'application/pdf' ? null : <p className="hint">{texts.previewAfterUpload}</p>;
  if (stored.data?.type.startsWith('image/')) return <BlobImage blob={stored.data} alt={texts.previewAlt(label)} />;
  if (stored.data || stored.isError) return <p className="hint">{texts.noPreview}</p>;
  return null;
}

/** An image of a blob by its object URL, made and revoked with the element itself (a ref callback and its cleanup). */
function BlobImage({ blob, alt, onError }: { blob: Blob; alt: string; onError?: () => void }) {
  const attach = useCallback(
    (image: HTMLImageElement | null) => {
      if (!image) return;
      const url = URL.createObjectURL(blob);
      image.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [blob],
  );
  return <img ref={attach} alt={alt} className="file-preview" onError={onError} />;
}

function problemText(problem: Problem, rule: FileRule, locale: Locale, texts: FileFieldTexts): string {
  switch (problem.kind) {
    case 'size':
      return texts.tooLarge(formatSize(locale, problem.size), formatSize(locale, rule.maxBytes));
    case 'type':
      return texts.wrongType(typeList(locale, rule));
    default:
      return texts.problems[problem.kind];
  }
}

/** "JPEG, PNG or HEIC", in the worker's language. */
function typeList(locale: Locale, rule: FileRule): string {
  return new Intl.ListFormat(locale, { type: 'disjunction' }).format(rule.types.map((type) => typeNames[type]));
}

const MB = 1024 * 1024;

/** "2.1 MB", "350 kB", in the worker's language; a megabyte is 1024 × 1024 bytes, as the server's limits count. */
function formatSize(locale: Locale, bytes: number): string {
  const [value, unit] = bytes >= MB ? [bytes / MB, 'megabyte'] : [Math.ceil(bytes / 1024), 'kilobyte'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: bytes >= MB ? 1 : 0 }).format(
    value,
  );
}

function percent(locale: Locale, part: number, whole: number): string {
  return new Intl.NumberFormat(locale, { style: 'percent' }).format(whole > 0 ? Math.floor((part / whole) * 100) / 100 : 0);
}
