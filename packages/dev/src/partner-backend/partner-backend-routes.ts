import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import type { DevHost } from '@partner-task-kit/server';
import type { PartnerBackendReceiver } from './receiver.ts';
import { offerAnswerModes, type OfferStandIn } from './offer-stand-in.ts';

export interface PartnerBackendOptions {
  /** What the server lends the panel: its clock, reads of a task, the preview's partner key. */
  host: DevHost;
  /** Undefined when PARTNER_WEBHOOK_URL sends the events elsewhere: the panel then has none to show. */
  receiver: PartnerBackendReceiver | undefined;
  /** This server's own address: the buttons call the partner API over HTTP, as a backend would. */
  selfUrl: string;
  /** Undefined when PARTNER_BACKEND_URL asks another backend for offers. */
  offerStandIn?: OfferStandIn | undefined;
  /** OFFER_TIMEOUT_MS: a "too slow" answer comes a second after it. */
  offerTimeoutMs?: number;
  /**
   * Whether the panel's control routes (under /control/partner-backend) are mounted: only with the preview, since they
   * have no authentication and show every task's events and files (docs/configuration.md#the-page-and-the-portal).
   */
  control: boolean;
}

const taskQuerySchema = z.object({ assignedTaskUuid: z.optional(z.string().check(z.maxLength(100))) });
const offerParamsSchema = z.object({
  workflowId: z.string().check(z.minLength(1), z.maxLength(100)),
  stepId: z.string().check(z.minLength(1), z.maxLength(100)),
});
const offerModeBodySchema = z.strictObject({
  assignedTaskUuid: z.string().check(z.minLength(1), z.maxLength(100)),
  mode: z.enum(offerAnswerModes),
});
const fileParamsSchema = z.object({
  assignedTaskUuid: z.string().check(z.minLength(1), z.maxLength(100)),
  uploadId: z.string().check(z.minLength(1), z.maxLength(100)),
});
/** What the panel's copy of a file keeps of the partner API's answer. */
const FILE_HEADERS = ['content-type', 'content-length', 'content-disposition', 'cache-control', 'x-content-type-options'];
const resolveParamsSchema = z.object({
  assignedTaskUuid: z.string().check(z.minLength(1), z.maxLength(100)),
  stepId: z.string().check(z.minLength(1), z.maxLength(100)),
});

/**
 * Emulator mode's stand-in for the partner's own backend (docs/development.md#the-partner-backend-panel): the receiver
 * of the events (under /emulator/partner-backend/events) and, for the preview, what it received, the task's files
 * (their bytes fetched as a backend would) and buttons that resolve a waiting step, both through the real partner
 * API with a key made for this start.
 */
export async function partnerBackendRoutes(app: FastifyInstance, options: PartnerBackendOptions): Promise<void> {
  const { host, receiver, offerStandIn } = options;

  if (receiver || offerStandIn) {
    await app.register(
      async (inbound) => {
        // The signature covers the body's exact bytes: it is verified on the text, before any parsing.
        inbound.removeAllContentTypeParsers();
        inbound.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
        if (receiver) {
          inbound.post('/partner-backend/events', async (request, reply) => {
            receiver.receive(request.headers, typeof request.body === 'string' ? request.body : '', host.now());
            return reply.code(204).send();
          });
        }
        if (offerStandIn) {
          const typed = inbound.withTypeProvider<ZodTypeProvider>();
          typed.post('/partner-backend/offers/:workflowId/:stepId', { schema: { params: offerParamsSchema } }, async (request, reply) => {
            const answer = offerStandIn.answer({
              ...request.params,
              headers: request.headers,
              body: typeof request.body === 'string' ? request.body : '',
              now: host.now(),
            });
            if ('slow' in answer) {
              // Past the server's whole budget, or until the server gives up and closes the connection.
              await waitOrClose(request.raw.socket, (options.offerTimeoutMs ?? 5_000) + 1_000);
              return reply.code(503).send({ error: 'too slow, as the preview asked' });
            }
            return reply.code(answer.status).send(answer.body);
          });
        }
      },
      { logLevel: 'warn' },
    );
  }

  if (!options.control) return;
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/control/partner-backend',
    { schema: { querystring: taskQuerySchema }, config: { inputErrors: { querystring: 'bad_request' } }, logLevel: 'warn' },
    async (request) => {
      const { assignedTaskUuid } = request.query;
      return {
        receiver: receiver !== undefined,
        events: receiver?.list(assignedTaskUuid) ?? [],
        offers: offerStandIn ? { mode: offerStandIn.modeOf(assignedTaskUuid), requests: offerStandIn.list(assignedTaskUuid) } : null,
        awaiting: assignedTaskUuid === undefined ? null : await host.awaitedStep(assignedTaskUuid),
        files: assignedTaskUuid === undefined ? [] : await host.taskFiles(assignedTaskUuid),
      };
    },
  );

  api.post(
    '/control/partner-backend/offer-mode',
    { schema: { body: offerModeBodySchema }, config: { inputErrors: { body: 'bad_request' } } },
    async (request, reply) => {
      if (!offerStandIn)
        return reply.code(409).send({ error: { code: 'no_stand_in', message: 'PARTNER_BACKEND_URL is set: offers come from there' } });
      offerStandIn.setMode(request.body.assignedTaskUuid, request.body.mode);
      return { mode: request.body.mode };
    },
  );

  // A file of the task, fetched from the partner API's files route with the preview's key, as a backend would: the
  // panel shows the cleaned bytes the partner gets. Passed on as a stream, with the route's own headers.
  api.get(
    '/control/partner-backend/tasks/:assignedTaskUuid/uploads/:uploadId',
    { schema: { params: fileParamsSchema } },
    async (request, reply) => {
      const { assignedTaskUuid, uploadId } = request.params;
      const response = await fetch(
        `${options.selfUrl}/api/partner/v1/tasks/${encodeURIComponent(assignedTaskUuid)}/uploads/${encodeURIComponent(uploadId)}`,
        { headers: { authorization: `Bearer ${await host.previewKey()}` }, signal: AbortSignal.timeout(30_000) },
      );
      reply.code(response.status);
      for (const name of FILE_HEADERS) {
        const value = response.headers.get(name);
        if (value !== null) reply.header(name, value);
      }
      return reply.send(response.body ?? undefined);
    },
  );

  // The body is handed on as its text, unparsed: the partner API checks it and refuses what it does not take (a
  // malformed body, data nested too deep) in its own shape, which the panel shows as a backend would get it.
  await app.register(async (resolveRoute) => {
    resolveRoute.removeAllContentTypeParsers();
    resolveRoute.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    resolveRoute
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/control/partner-backend/tasks/:assignedTaskUuid/steps/:stepId',
        { schema: { params: resolveParamsSchema } },
        async (request, reply) => {
          const { assignedTaskUuid, stepId } = request.params;
          const response = await fetch(
            `${options.selfUrl}/api/partner/v1/tasks/${encodeURIComponent(assignedTaskUuid)}/steps/${encodeURIComponent(stepId)}`,
            {
              method: 'POST',
              headers: {
                authorization: `Bearer ${await host.previewKey()}`,
                'content-type': 'application/json',
                'idempotency-key': `preview-${crypto.randomUUID()}`,
              },
              body: typeof request.body === 'string' ? request.body : '',
              signal: AbortSignal.timeout(10_000),
            },
          );
          return reply
            .code(response.status)
            .header('content-type', 'application/json')
            .send(await response.text());
        },
      );
  });
}

function waitOrClose(socket: NodeJS.EventEmitter, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      socket.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    socket.once('close', done);
  });
}
