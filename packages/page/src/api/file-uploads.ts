import { queryOptions } from '@tanstack/react-query';
import * as tus from 'tus-js-client';
import { errorBodySchema, ASSIGNED_TASK_HEADER } from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { apiErrorFrom } from './api-error.ts';
import { taskKeys } from './query-keys.ts';
import { getTaskUploads, tusHead, UPLOADS_PATH } from './upload-requests.ts';

/**
 * The page's side of uploads (docs/api.md#uploads): tus-js-client against `/api/task/uploads`, the session's token on
 * every request. Imported only by the file field (packages/page/src/task/file-field.tsx), so tus-js-client loads with a step that
 * has one, never with a first screen (docs/development.md#benchmarks).
 */

/**
 * A cut connection loses at most the chunk on its way (a proxy that holds a request's body until it is whole passes on
 * nothing of an unfinished one), and a 10 MB photo takes ten requests, well within the session's rate limit.
 */
const CHUNK_BYTES = 1024 * 1024;

/** tus-js-client tries again after these pauses; the count starts over whenever bytes got through. */
const RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000];

/** Paused (no connection, or no answer after the retries): tried again this often, and as soon as the browser is back online. */
const PAUSED_RETRY_MS = 15_000;

/** The record tus-js-client keeps of an upload to resume it after a reload: older ones are forgotten (the server drops them too). */
const REMEMBERED_FOR_MS = 24 * 60 * 60 * 1000;

/** Where one upload goes: a file field of a step, in the task's current attempt. */
export interface UploadTarget {
  attempt: number;
  stepId: string;
  field: string;
}

/** Why an upload was refused for good, each said to the worker in their language (packages/page/src/task/file-field-texts.ts). */
export type UploadProblem = 'type' | 'size' | 'quota' | 'closed' | 'session' | 'failed';

export interface UploadEvents {
  /** Bytes sent of the file, the part the server already had included. */
  onProgress(sent: number, total: number): void;
  onDone(uploadId: string): void;
  /** No connection, or none of the retries answered: the upload waits and goes on by itself (`resume` goes on now). */
  onPaused(): void;
  onResumed(): void;
  onRefused(problem: UploadProblem): void;
}

export interface RunningUpload {
  /** Goes on now with a paused upload. */
  resume(): void;
  /** Stops it for good; the server drops what it received when no answer names it (docs/operations.md). */
  abort(): void;
}

/**
 * Sends `file` with tus to the field of `target`. It resumes by itself: after a dropped connection from the server's
 * offset (tus's HEAD), and after a reload from tus's record of the unfinished upload in localStorage, found again when
 * the worker picks the same file (its name, type, size and date, for this task, attempt and field). A finished one is
 * the server's to tell (`GET /api/task/uploads`): its record here goes once it is done.
 */
export function startUpload(client: ApiClient, file: File, target: UploadTarget, events: UploadEvents): RunningUpload {
  const storage = urlStorage();
  const prefix = fieldPrefix(client, target);
  let renewToken = false;
  let paused = false;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const options = requestOptions(client, () => {
    const renew = renewToken;
    renewToken = false;
    return renew;
  });
  const upload = new tus.Upload(file, {
    ...options,
    endpoint: new URL(UPLOADS_PATH, window.location.origin).href,
    metadata: { filename: file.name, filetype: file.type, stepId: target.stepId, field: target.field },
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    urlStorage: storage,
    fingerprint: (chosen: File) => Promise.resolve(`${prefix}${[chosen.name, chosen.type, chosen.size, chosen.lastModified].join(':')}`),
    storeFingerprintForResuming: true,
    // Dropped after success: the server lists the finished upload to any device (findFieldUpload); a record kept here
    // would only tell this browser.
    removeFingerprintOnSuccess: true,
    onShouldRetry: (error, attempt) => {
      const status = error.originalResponse?.getStatus();
      // Offline: the retries would all fail at once; the upload waits for the connection instead (onError).
      if (status === undefined) return navigator.onLine !== false;
      if (status === 401) {
        renewToken = true;
        return attempt < 2;
      }
      // 409 upload_offset_mismatch: the offset moved under this request (a second tab), which a HEAD settles; another
      // 409 (the task closed, or moved on to another step) is the same on every try. 423: locked; 429: the session's
      // rate limit.
      if (status === 409) return errorCodeOf(error.originalResponse?.getBody()) === 'upload_offset_mismatch';
      return status >= 500 || status === 423 || status === 429;
    },
    onProgress: (sent, total) => events.onProgress(sent, total),
    onSuccess: () => {
      stopWaiting();
      events.onDone(uploadIdOf(upload.url));
    },
    onError: (error) => {
      if (stopped) return;
      const problem = problemOf(error);
      if (problem !== undefined) return events.onRefused(problem);
      paused = true;
      events.onPaused();
      waitToResume();
    },
  });

  function goOn() {
    if (!paused || stopped) return;
    paused = false;
    stopWaiting();
    events.onResumed();
    upload.start();
  }
  function waitToResume() {
    window.addEventListener('online', goOn);
    retryTimer = setTimeout(goOn, PAUSED_RETRY_MS);
  }
  function stopWaiting() {
    window.removeEventListener('online', goOn);
    clearTimeout(retryTimer);
  }

  void (async () => {
    // An earlier upload of this field (another file picked before) is abandoned: its unfinished bytes are dropped now
    // rather than left to count against the task's quota. One of the same file is resumed instead.
    const previous = await upload.findPreviousUploads().catch(() => []);
    const resumable = newestFirst(previous)[0];
    for (const entry of await storage.findAllUploads()) {
      if (!entry.urlStorageKey.startsWith(`tus::${prefix}`) || entry.urlStorageKey === resumable?.urlStorageKey) continue;
      await storage.removeUpload(entry.urlStorageKey);
      if (entry.uploadUrl) void tus.Upload.terminate(entry.uploadUrl, { ...options, retryDelays: [] }).catch(() => {});
    }
    if (resumable) upload.resumeFromPreviousUpload(resumable);
    if (!stopped) upload.start();
  })();

  return {
    resume: goOn,
    abort: () => {
      stopped = true;
      stopWaiting();
      void upload.abort();
    },
  };
}

/** What the worker last sent for a file field, as the server has it now. */
export type FieldUpload =
  { kind: 'none' } | { kind: 'completed'; uploadId: string } | { kind: 'unfinished'; filename: string; offset: number; size: number };

/**
 * When the field appears: the field's newest finished upload that no saved step names, as the server lists it
 * (`GET /api/task/uploads`), so a page on another device or in a fresh browser shows it done and the step can be
 * saved without sending it again. An unfinished upload this browser started later (tus's record in localStorage) is
 * shown instead, and the worker is asked for the same file, which then goes on from where it stopped. Records of
 * uploads the server no longer has, finished ones and old ones are forgotten.
 */
async function findFieldUpload(client: ApiClient, target: UploadTarget): Promise<FieldUpload> {
  const listed = (await getTaskUploads(client)).uploads.find((upload) => upload.stepId === target.stepId && upload.field === target.field);
  const finished: FieldUpload = listed ? { kind: 'completed', uploadId: listed.id } : { kind: 'none' };
  const storage = urlStorage();
  const prefix = `tus::${fieldPrefix(client, target)}`;
  const entries = [];
  for (const entry of await storage.findAllUploads()) {
    const forgotten = !(Date.parse(entry.creationTime) > Date.now() - REMEMBERED_FOR_MS);
    if (forgotten && entry.urlStorageKey.startsWith(`tus::${FINGERPRINT_PREFIX}`)) await storage.removeUpload(entry.urlStorageKey);
    else if (entry.urlStorageKey.startsWith(prefix) && entry.uploadUrl) entries.push({ ...entry, uploadUrl: entry.uploadUrl });
  }
  const latest = newestFirst(entries)[0];
  // Picked before the listed one finished was created: the listed one is the worker's latest choice.
  if (!latest || (listed && Date.parse(latest.creationTime) <= Date.parse(listed.createdAt))) return finished;

  const response = await tusHead(client, latest.uploadUrl);
  if (response.status === 404) {
    await storage.removeUpload(latest.urlStorageKey);
    return finished;
  }
  if (!response.ok) throw await apiErrorFrom(response);
  const offset = Number(response.headers.get('upload-offset'));
  const size = Number(response.headers.get('upload-length'));
  if (offset === size) {
    // Finished: listed above unless a saved step names it (then the step's answer shows it).
    await storage.removeUpload(latest.urlStorageKey);
    return finished;
  }
  return { kind: 'unfinished', filename: latest.metadata.filename ?? '', offset, size };
}

export function fieldUploadQueryOptions(client: ApiClient, target: UploadTarget) {
  return queryOptions({
    queryKey: taskKeys.fieldUpload(client.context, target.attempt, target.stepId, target.field),
    queryFn: () => findFieldUpload(client, target),
    // Read once as the field appears: what the worker does afterwards is the field's own state.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

const FINGERPRINT_PREFIX = 'ptk-upload:';

/** Every upload of one field of one attempt of this task starts its fingerprint so. */
function fieldPrefix(client: ApiClient, target: UploadTarget): string {
  return `${FINGERPRINT_PREFIX}${client.context.wxAssignedTaskUuid}:${target.attempt}:${target.stepId}:${target.field}:`;
}

function newestFirst<T extends { creationTime: string }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime));
}

/** The id is the last segment of the upload's URL (its Location). */
function uploadIdOf(url: string | null): string {
  return url?.split('/').pop() ?? '';
}

type UploadOptions = NonNullable<ConstructorParameters<typeof tus.Upload>[1]>;
type UrlStorage = NonNullable<UploadOptions['urlStorage']>;

/** What every tus request of ours carries: the session's token, current at each request, and the task it is for. */
function requestOptions(client: ApiClient, renew: () => boolean): UploadOptions {
  return {
    onBeforeRequest: async (request) => {
      request.setHeader('Authorization', `Bearer ${await client.sessionToken({ renew: renew() })}`);
      request.setHeader(ASSIGNED_TASK_HEADER, client.context.wxAssignedTaskUuid);
    },
  };
}

/**
 * tus-js-client's localStorage record, or none where the page may not keep one (an iframe whose storage the browser
 * blocks, private browsing): tus then keeps nothing and an upload after a reload starts over. A write that fails (the
 * quota) or a read of a blocked storage costs the resumption only, never the upload.
 */
function urlStorage(): UrlStorage {
  const stored = tus.defaultOptions.urlStorage;
  const safely = <T>(read: () => Promise<T>, fallback: T) => {
    try {
      return read().catch(() => fallback);
    } catch {
      return Promise.resolve(fallback);
    }
  };
  return {
    findAllUploads: () => safely(() => stored.findAllUploads(), []),
    findUploadsByFingerprint: (fingerprint) => safely(() => stored.findUploadsByFingerprint(fingerprint), []),
    removeUpload: (key) => safely(() => stored.removeUpload(key), undefined),
    addUpload: (fingerprint, upload) => safely(() => stored.addUpload(fingerprint, upload), ''),
  };
}

/** The refusal a tus error is, by the server's code; undefined for no answer at all or a server fault (pause and go on). */
function problemOf(error: Error): UploadProblem | undefined {
  if (!(error instanceof tus.DetailedError)) return 'failed';
  const response = error.originalResponse;
  if (!response) return undefined;
  const status = response.getStatus();
  if (status >= 500 || status === 429 || status === 423) return undefined;
  const code = errorCodeOf(response.getBody());
  const problems: Record<string, UploadProblem> = {
    unsupported_file_type: 'type',
    upload_too_large: 'size',
    upload_quota_exceeded: 'quota',
    task_closed: 'closed',
    missing_token: 'session',
    invalid_token: 'session',
    token_expired: 'session',
    wrong_task: 'session',
  };
  return (code === undefined ? undefined : problems[code]) ?? 'failed';
}

/** The contract's error code in a tus answer's body (docs/api.md#errors); undefined for any other body. */
function errorCodeOf(body: string | undefined): string | undefined {
  try {
    return errorBodySchema.safeParse(JSON.parse(body ?? '')).data?.error.code;
  } catch {
    return undefined;
  }
}
