import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { ASSIGNED_TASK_HEADER, type TaskContext } from '@partner-task-kit/workflow/contract';
import { apiError } from '../api-error.ts';
import { verifySessionToken, type TokenCheck } from './session-token.ts';

/** docs/decisions/005-no-cookies-session-tokens.md: `Authorization: Bearer <token>`; the token names the one task this request may touch. */
export async function authenticate(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  clock: Clock,
): Promise<{ context: TaskContext; sessionKey: string }> {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') {
    reply.header('www-authenticate', 'Bearer');
    throw apiError('missing_token', 'Send the session token from POST /api/session as "Authorization: Bearer <token>".');
  }
  const match = /^Bearer ([A-Za-z0-9._-]{1,2048})$/.exec(header.trim());
  const check: TokenCheck = match?.[1] ? await verifySessionToken(secret, match[1], clock.now()) : { ok: false, reason: 'malformed' };
  if (!check.ok) {
    reply.header('www-authenticate', `Bearer error="invalid_token"`);
    if (check.reason === 'expired') throw apiError('token_expired', 'The session has expired; open a new one with POST /api/session.');
    throw apiError('invalid_token', 'The session token is not valid; open a new one with POST /api/session.');
  }
  const named = request.headers[ASSIGNED_TASK_HEADER];
  if (named !== undefined && (typeof named !== 'string' || named !== check.claims.context.wxAssignedTaskUuid)) {
    throw apiError('wrong_task', 'This session belongs to another task.');
  }
  // The token's signature names this session alone: a per-session limit that someone else's session cannot drain.
  return { context: check.claims.context, sessionKey: match![1]!.slice(match![1]!.lastIndexOf('.') + 1) };
}
