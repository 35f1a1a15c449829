import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler, onResponseAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import { errorBody } from './emulator-errors.ts';
import type { EmulatorState } from './emulator-state.ts';
import type { Fault } from './fault-queue.ts';
import { bearerKey, bearerTokens, parseBasic } from './http-auth.ts';
import { BODY_LOG_LIMIT, type LoggedRequest, type UpstreamEndpoint } from './request-log.ts';

/** Every call to a platform endpoint goes through these hooks: faults applied before and after, the request recorded. */

/**
 * What a fault does before the request is handled. Returns the reply when the fault answered (or dropped) the
 * request itself, undefined when the route should go on.
 */
async function applyFaultBefore(
  fault: Fault,
  state: EmulatorState,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? 503;
      return reply.code(status).send(errorBody('injected_fault', `fault injected by the control API: status ${status}`));
    }
    case 'rateLimit': {
      const seconds = fault.retryAfterSeconds ?? 1;
      return reply
        .code(429)
        .header('retry-after', String(seconds))
        .send(errorBody('rate_limited', `too many requests; retry after ${seconds} s (fault injected by the control API)`));
    }
    case 'delay':
      await sleep(fault.delayMs ?? 0);
      // A client that gave up meanwhile (its timeout) closed the connection: its body can no longer be read, so the
      // request ends here, unapplied. `after: true` is the variant where the update is applied and the answer is late.
      if (request.raw.destroyed || request.raw.socket.destroyed) {
        reply.hijack();
        return reply;
      }
      return undefined;
    case 'drop':
      // No answer at all: the client sees the connection close, as on a network failure. Nothing is applied.
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    case 'expireToken':
      // The presented token becomes expired; the route then answers 401 and the client must renew (docs/platform.md#token).
      for (const token of bearerTokens(request.headers, true)) state.tokens.expire(token);
      return undefined;
  }
}

/**
 * What a fault with `after: true` does once the request was handled (an update is then already applied): the answer
 * is late (delay) or lost (drop). This is the case that makes a client redeliver an update the platform already has,
 * the at-least-once delivery that the `duplicate` trail outcome makes visible.
 */
async function applyFaultAfter(fault: Fault, request: FastifyRequest): Promise<void> {
  if (fault.kind === 'delay') await sleep(fault.delayMs ?? 0);
  else if (fault.kind === 'drop') request.raw.socket.destroy();
}

/** Who made a request, for the request log: see LoggedRequest.credentialKey. */
function credentialKeyOf(state: EmulatorState, endpoint: UpstreamEndpoint, headers: IncomingHttpHeaders): string | undefined {
  if (endpoint !== 'token') return bearerKey(state, headers, endpoint === 'workers');
  const basic = parseBasic(headers.authorization);
  // A Basic pair that matches no credential was made by none, so it names no Key.
  return basic === undefined ? undefined : state.credentials.authenticate(basic.key, basic.secret)?.key;
}

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
      const credentialKey = credentialKeyOf(state, endpoint, request.headers);
      if (credentialKey !== undefined) entry.credentialKey = credentialKey;
      this.entries.set(request, entry);
      const fault = state.faults.take(endpoint, (request.params as { assignedTaskUuid?: string } | undefined)?.assignedTaskUuid);
      if (fault === undefined) return undefined;
      entry.fault = fault.kind;
      if (fault.after === true) {
        this.deferred.set(request, fault);
        return undefined;
      }
      const decided = await applyFaultBefore(fault, state, request, reply);
      // A request given up with its client (or dropped) is hijacked and never reaches onResponse: it is over now.
      if (request.raw.destroyed || request.raw.socket.destroyed) entry.ended = true;
      return decided;
    };
    const onSend = async (request: FastifyRequest, _reply: FastifyReply, payload: unknown): Promise<unknown> => {
      const fault = this.deferred.get(request);
      if (fault !== undefined) await applyFaultAfter(fault, request);
      return payload;
    };
    const onResponse = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const entry = this.entries.get(request);
      if (entry !== undefined) entry.ended = true;
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
