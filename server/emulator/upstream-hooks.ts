import type {
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
} from 'fastify';
import type { EmulatorState } from './emulator-state';
import { applyFaultAfter, applyFaultBefore } from './fault-effects';
import type { Fault } from './fault-queue';
import { BODY_LOG_LIMIT, type LoggedRequest, type UpstreamEndpoint } from './request-log';

export interface UpstreamHooks {
  onRequest: onRequestAsyncHookHandler;
  onSend: onSendAsyncHookHandler<unknown>;
  onResponse: onResponseAsyncHookHandler;
}

/**
 * Request logging and fault injection for the upstream endpoints. One instance per emulator: WeakMaps tie each request
 * to its log entry and deferred fault without decorating Fastify's request (two emulators may live in one app).
 */
export class UpstreamRecorder {
  private readonly entries = new WeakMap<FastifyRequest, LoggedRequest>();
  private readonly deferred = new WeakMap<FastifyRequest, Fault>();

  constructor(private readonly state: EmulatorState) {}

  /** Route-level hooks for one endpoint: log the request, let the next matching fault decide it, log the status. */
  hooksFor(endpoint: UpstreamEndpoint): UpstreamHooks {
    const onRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
      const state = this.state;
      const queryAt = request.url.indexOf('?');
      const entry = state.requests.add({
        time: new Date(state.clock.now()).toISOString(),
        endpoint,
        method: request.method,
        path: queryAt < 0 ? request.url : request.url.slice(0, queryAt),
        query: { ...(request.query as Record<string, unknown>) },
        headers: request.headers,
        body: null,
        status: null,
      });
      this.entries.set(request, entry);
      const fault = state.faults.take(endpoint, (request.params as { assignedTaskUuid?: string } | undefined)?.assignedTaskUuid);
      if (fault === undefined) return undefined;
      entry.fault = fault.kind;
      if (fault.after === true) {
        this.deferred.set(request, fault);
        return undefined;
      }
      return applyFaultBefore(fault, state, request, reply);
    };
    const onSend = async (request: FastifyRequest, _reply: FastifyReply, payload: unknown): Promise<unknown> => {
      const fault = this.deferred.get(request);
      if (fault !== undefined) await applyFaultAfter(fault, request);
      return payload;
    };
    const onResponse = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const entry = this.entries.get(request);
      // A dropped answer never reached the client: its status stays null.
      if (entry !== undefined && this.deferred.get(request)?.kind !== 'drop') entry.status = reply.statusCode;
    };
    return { onRequest, onSend, onResponse };
  }

  /** Records the body of a request: the parsed JSON when it parsed, else the raw text cut to a bounded length. */
  recordBody(request: FastifyRequest, raw: string | undefined, parsed?: unknown): void {
    const entry = this.entries.get(request);
    if (entry === undefined) return;
    if (parsed !== undefined) entry.body = parsed;
    else if (raw !== undefined) entry.body = raw.length > BODY_LOG_LIMIT ? `${raw.slice(0, BODY_LOG_LIMIT)}…` : raw;
  }
}
