import type { FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorBody } from './emulator-error';
import type { EmulatorState } from './emulator-state';
import type { Fault } from './fault-queue';
import { bearerTokens } from './http-auth';

/**
 * What a fault does before the request is handled. Returns the reply when the fault answered (or dropped) the
 * request itself, undefined when the route should go on.
 */
export async function applyFaultBefore(
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
      // The presented token becomes expired; the route then answers 401 and the client must renew (spec 4.1).
      for (const token of bearerTokens(request.headers, true)) state.tokens.expire(token);
      return undefined;
  }
}

/**
 * What a fault with `after: true` does once the request was handled (an update is then already applied): the answer
 * is late (delay) or lost (drop). This is the case that makes a client redeliver an update the platform already has,
 * the at-least-once delivery that the `duplicate` trail outcome makes visible.
 */
export async function applyFaultAfter(fault: Fault, request: FastifyRequest): Promise<void> {
  if (fault.kind === 'delay') await sleep(fault.delayMs ?? 0);
  else if (fault.kind === 'drop') request.raw.socket.destroy();
}
