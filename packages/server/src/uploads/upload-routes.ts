import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server as TusServer } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_FILE_MAX_BYTES, fileFieldsOf, type FileRule, type WorkflowCatalog } from '@partner-task-kit/workflow';
import { apiError } from '../api-error.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Store } from '../store/store.ts';
import { findTaskById } from '../store/tasks.repository.ts';
import type { Task } from '../store/tasks.table.ts';
import { completeUpload, deleteUpload, findUpload, type UploadRecord } from '../store/uploads.repository.ts';
import { readOwnTask } from '../task-progress/locked-task.ts';
import { claimUpload, deleteClaimedUploads } from '../store/upload-removals.repository.ts';
import { cleanUpload, type Cleaning } from './upload-cleaning.ts';
import { createCleaningPool, type CleaningPool } from './cleaning-pool.ts';
import type { UploadFiles } from './upload-files.ts';
import { databaseUploadLocker } from './upload-locker.ts';
import { ContractTusServer, tusError } from './tus-answers.ts';
import { UPLOADS_PATH, uploadIdOfRequest } from './upload-url.ts';
import { admitUpload, registeredFileRule, type FileRuleOf } from './upload-admission.ts';
import { unsavedUploadsOf } from './unsaved-uploads.ts';

export interface UploadSettings {
  /** What a task may hold (docs/configuration.md#uploads): files, and their declared bytes in all. */
  maxFilesPerTask?: number;
  maxBytesPerTask?: number;
  /**
   * The rule of a step's file field; default: the `fileField` of the step's schema in the task's workflow. Either way
   * the step must be the one the worker may save now (upload-admission.ts).
   */
  fileRuleOf?: FileRuleOf;
}

export interface UploadRouteDeps {
  config: Config;
  clock: Clock;
  store: Store;
  /** Whose steps' file fields set each upload's rule (their `fileField`). */
  workflows: WorkflowCatalog;
  /** The configuration's quota per task (docs/configuration.md#uploads), under whatever a test sets. */
  settings: UploadSettings & Required<Pick<UploadSettings, 'maxFilesPerTask' | 'maxBytesPerTask'>>;
  /** Where the bytes are kept (upload-store.ts). */
  files: UploadFiles;
  /** The task API's session hooks: per address, authenticated (sets `request.taskContext`), per session. */
  sessionHooks: ((request: FastifyRequest, reply: FastifyReply) => Promise<void>)[];
}

/**
 * Resumable uploads (tus 1.0.0, docs/api.md#uploads) with @tus/server, mounted as its Fastify guide shows: every
 * method of the path handed to `tusServer.handle` with the request's body left unread. Fastify authenticates first,
 * and finds the task the token names; tus's hooks then bind the upload to that task and attempt.
 */
export async function registerUploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): Promise<void> {
  const { clock, store, settings } = deps;
  const { files } = deps;
  const fileRuleOf = settings.fileRuleOf ?? registeredFileRule(deps.workflows);
  const admission = {
    store,
    workflows: deps.workflows,
    fileRuleOf,
    quota: { files: settings.maxFilesPerTask, bytes: settings.maxBytesPerTask },
    now: () => clock.now(),
  };
  // What the Fastify handler found of each request (the task its token names, the upload its path names), read by
  // tus's hooks: tus is handed nothing of the request it could read otherwise.
  const handled = new WeakMap<IncomingMessage, HandledRequest>();
  const handledOf = (request: Request): HandledRequest => {
    const raw = (request as { runtime?: { node?: { req: IncomingMessage } } }).runtime?.node?.req;
    const found = raw && handled.get(raw);
    if (!found) throw new Error('upload request without its task');
    return found;
  };

  // Files are decoded in a few processes, under a deadline, tasks taking turns (cleaning-pool.ts): a decoded photo is
  // the largest thing an upload puts in memory.
  const cleaningPool = createCleaningPool(deps.config.uploads.cleaning, app.log);
  app.addHook('onClose', () => cleaningPool.close());
  // Started with the server when a field takes files: the memory an operator sees idle is then the pool's too, and a
  // photo's cleaning adds only its decoding (docs/operations.md#files, its Memory).
  if (registeredRules(deps.workflows).length > 0) app.addHook('onReady', () => cleaningPool.warm());
  // Made on the first upload: a server that never takes one needs no store.
  let made: Promise<TusServer> | undefined;
  const tus = () =>
    (made ??= files.datastore().then(makeTusServer, (error: unknown) => {
      made = undefined;
      throw error;
    }));
  const makeTusServer = (datastore: Awaited<ReturnType<UploadFiles['datastore']>>) =>
    new ContractTusServer({
      path: UPLOADS_PATH,
      // The id the route checked against the token's task (upload-url.ts), never one tus would read from the URL.
      getFileIdFromRequest: (request) => handledOf(request).uploadId,
      datastore,
      // One request at a time per upload, across every instance (upload-locker.ts).
      locker: databaseUploadLocker({ store, clock }),
      relativeLocation: true,
      // The page calls from its own origin, and the rest of the task API sends no CORS headers: tus would allow any.
      allowedOrigins: () => false,
      // Tus-Max-Size: the largest file any field takes; each field's own limit is checked on creation.
      maxSize: Math.max(DEFAULT_FILE_MAX_BYTES, ...registeredRules(deps.workflows).map((rule) => rule.maxBytes)),
      // 128 random bits: the id is all that names an upload in its URL.
      namingFunction: () => randomBytes(16).toString('base64url'),
      async onUploadCreate(request, upload) {
        const handledRequest = handledOf(request);
        nameInLogs(handledRequest, upload.id);
        // Checked and recorded in one transaction holding the task locked: the step at hand, the field, the size and
        // what the task holds (upload-admission.ts).
        const target = { stepId: upload.metadata?.stepId ?? '', field: upload.metadata?.field ?? '' };
        const refusal = await admitUpload(admission, handledRequest.task, { id: upload.id, ...target, size: upload.size });
        if (refusal) throw tusError(refusal.code, refusal.message, refusal.field);
        // What the store keeps beside the bytes is what the server needs, no more: the phone's file name and the type
        // it claims (`filename`, `filetype`) are dropped before tus writes its record (docs/api.md#uploads).
        return { metadata: target };
      },
      // The contract's body for each refusal is written by ContractTusServer; a 5xx is logged here with its cause,
      // which its answer does not carry.
      onResponseError(request, error) {
        const status = 'status_code' in error ? error.status_code : 500;
        if (status >= 500) handledOf(request).request.log.error({ err: error }, 'upload request failed');
        return undefined;
      },
      async onUploadFinish(_request, upload) {
        const record = await findUpload(store.db, upload.id);
        const task = record && (await findTaskById(store.db, record.taskId));
        const rule = record && task && fileRuleOf(task.workflowId, record.stepId, record.field);
        const cleaning: Cleaning = rule
          ? await files.withLocalCopy(upload.id, (path) => cleanInto(files, upload.id, path, rule.types, cleaningPool, record.taskId))
          : { ok: false, message: 'The upload is gone.' };
        if (!cleaning.ok) {
          // Nothing of a refused file stays: neither its bytes nor its row.
          await files.remove(upload.id);
          await deleteUpload(store.db, upload.id);
          throw tusError('unsupported_file_type', cleaning.message);
        }
        if (!(await completeUpload(store.db, { id: upload.id, ...cleaning.file, completedAt: clock.now() }))) {
          // Claimed for removal while it was cleaned (an erasure): its remover may have run before the cleaned file
          // took its place, so these bytes go here (docs/operations.md#files).
          await files.remove(upload.id);
          throw tusError('not_found', 'No such upload for this task.');
        }
        return {};
      },
    });

  // The body is tus's to read, as a stream: Fastify leaves it alone.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const context = request.taskContext;
    if (!context) throw new Error('upload route without its session hook');
    const uploadId = uploadIdOfRequest(request);
    const task = await readOwnTask(store.db, context);
    if (uploadId !== undefined) {
      nameInLogs({ request, reply }, uploadId);
      const record = await ownUpload(store, task, uploadId);
      if (record.state === 'completed') {
        // The stored file is the cleaned one, of another size than the one sent: tus's own HEAD would report it as
        // unfinished, and a client resuming it would append to it. A completed upload stays as it is.
        if (request.method !== 'HEAD') throw apiError('upload_complete', 'This upload is complete: it can no longer change.');
        const length = String(record.declaredBytes);
        return reply
          .header('tus-resumable', '1.0.0')
          .header('upload-offset', length)
          .header('upload-length', length)
          .header('cache-control', 'no-store')
          .send();
      }
      // Terminated, it no longer counts against the task's quota. Claimed first, so no answer can name it after,
      // and deleted once tus removed its bytes: a crash between leaves the claim to the retention job (docs/operations.md#files).
      if (request.method === 'DELETE') await claimUpload(store.db, record.id);
    }
    handled.set(request.raw, { task, request, reply, uploadId });
    // The headers set by the scope's hooks (security headers) go out on the raw response tus writes.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    const server = await tus();
    reply.hijack();
    await server.handle(request.raw, reply.raw);
    if (request.method === 'DELETE' && reply.raw.statusCode === 204 && uploadId !== undefined)
      await deleteClaimedUploads(store.db, [uploadId]);
  };
  // The task API's 16 KB body limit stays: tus's bytes bypass it (the parser above leaves them unread), while a body
  // of any other type Fastify would parse is refused at 16 KB rather than held in memory whole.
  const route = { schema: { hide: true }, onRequest: deps.sessionHooks };
  app.post(UPLOADS_PATH, route, handle);
  // Protocol discovery (Tus-Version, Tus-Extension, Tus-Max-Size): nothing of a task, so no session.
  app.options(UPLOADS_PATH, { schema: { hide: true }, onRequest: deps.sessionHooks[0] }, async (request, reply) => {
    uploadIdOfRequest(request);
    const server = await tus();
    reply.hijack();
    await server.handle(request.raw, reply.raw);
  });
  for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) app.route({ ...route, method, url: `${UPLOADS_PATH}/:id`, handler: handle });
  // What the worker sent for steps not saved yet, for a page on any device to show as done (docs/api.md#uploads):
  // the server's record, not the browser's, which another device or a cleared storage has not got.
  app.get(UPLOADS_PATH, { ...route, exposeHeadRoute: false }, async (request, reply) => {
    const context = request.taskContext;
    if (!context) throw new Error('upload route without its session hook');
    const task = await readOwnTask(store.db, context);
    return reply.header('cache-control', 'private, no-store').send(await unsavedUploadsOf(store, task));
  });
  // The worker's own file again, for the page to show after a reload or "Back" (docs/api.md#uploads). Its HEAD is
  // tus's, above: not the one Fastify would add.
  app.get(`${UPLOADS_PATH}/:id`, { ...route, exposeHeadRoute: false }, async (request, reply) => {
    const context = request.taskContext;
    if (!context) throw new Error('upload route without its session hook');
    const uploadId = uploadIdOfRequest(request);
    const task = await readOwnTask(store.db, context);
    const record = await ownUpload(store, task, uploadId);
    const stream = record.state === 'completed' && record.contentType !== null ? await files.open(record.id) : undefined;
    if (!stream || record.contentType === null) throw apiError('not_found', 'No such upload for this task.');
    // The type read from the bytes, never sniffed again; personal data, kept by no cache.
    return reply
      .header('content-type', record.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', 'attachment')
      .send(stream);
  });
}

/**
 * Cleans the received file into a temporary one, decoded in the pool when its task's turn comes, which then takes the
 * received one's place in the store.
 */
async function cleanInto(
  files: UploadFiles,
  id: string,
  path: string,
  types: FileRule['types'],
  pool: CleaningPool,
  taskId: string,
): Promise<Cleaning> {
  const directory = await mkdtemp(join(tmpdir(), 'ptk-clean-'));
  try {
    const cleaning = await cleanUpload(path, join(directory, 'cleaned'), types, (job, memoryBytes) => pool.run(taskId, job, memoryBytes));
    if (cleaning.ok && cleaning.path !== path) await files.replace(id, cleaning.path);
    return cleaning;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** HEAD, PATCH and DELETE reach only an upload of the token's task and its current attempt: any other is 404, as one that never was. */
async function ownUpload(store: Store, task: Task, id: string | undefined): Promise<UploadRecord> {
  const record = id === undefined ? undefined : await findUpload(store.db, id);
  if (!record || record.taskId !== task.id || record.attempt !== task.attempt)
    throw apiError('not_found', 'No such upload for this task.', 'uploadId');
  return record;
}

function registeredRules(workflows: WorkflowCatalog): FileRule[] {
  return workflows.list().flatMap((workflow) => workflow.steps.flatMap((step) => Object.values(fileFieldsOf(step.schema))));
}

/** Every line of a request, its access line included, names the upload it acts on (docs/operations.md#logs). */
function nameInLogs(handled: Pick<HandledRequest, 'request' | 'reply'>, uploadId: string): void {
  const log = handled.request.log.child({ uploadId });
  handled.request.log = log;
  handled.reply.log = log;
}

/** An upload request as the Fastify handler checked it. */
interface HandledRequest {
  task: Task;
  request: FastifyRequest;
  reply: FastifyReply;
  /** From the path (upload-url.ts); undefined for `POST`. */
  uploadId: string | undefined;
}
