import type { Clock } from '../clock.ts';
import type { OutboxUpdate } from '../store/outbox.table.ts';
import type { HttpTransport } from '../upstream/http-transport.ts';
import { BODY_START_BYTES, bodyStart, classifyFetchError, parseRetryAfter, type UpdateOutcome } from '../upstream/upstream-outcome.ts';
import type { UpdateSender } from './delivery-clients.ts';
import { signWebhook } from './webhook-signature.ts';

/** Where a partner's events go and the secrets they are signed with (two during a rotation). */
export interface PartnerEndpoint {
  url: string;
  secrets: () => readonly string[];
}

/**
 * One event per POST, signed (webhook-signature.ts). The `webhook-id` is the row's, so every retry of an event carries
 * the same and a receiver can drop a repeat (delivery is at least once, docs/decisions/002-outbox-not-dual-writes.md).
 * The body is the stored one, byte for byte on every try; only `webhook-timestamp` is this attempt's.
 */
export function partnerWebhookSender(
  endpoint: PartnerEndpoint,
  options: { clock: Clock; timeoutMs: number; send: HttpTransport },
): UpdateSender {
  const { clock, timeoutMs, send } = options;
  return {
    async updatePartnerTask(_assignedTaskUuid, _payload, row: OutboxUpdate): Promise<UpdateOutcome> {
      const body = JSON.stringify(row.payload);
      const id = webhookIdOf(row);
      const timestampSeconds = Math.floor(clock.now() / 1000);
      const signature = signWebhook(endpoint.secrets(), { id, timestampSeconds, body });
      try {
        // node:http with keep-alive, like the platform's client: a fraction of fetch's CPU per event (packages/kit-tests/bench/partner-events.ts).
        const reply = await send(endpoint.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(timestampSeconds),
            'webhook-signature': signature,
          },
          body,
          timeoutMs,
          // Only a 4xx's body is used, its start in the detail: a receiver's answer is never read further, however long.
          maxAnswerBytes: BODY_START_BYTES,
        });
        return outcomeOf(reply.status, reply.headers.get('retry-after'), reply.text, clock.now(), reply.truncated);
      } catch (error) {
        return classifyFetchError(error, timeoutMs);
      }
    },
  };
}

/**
 * Unique across databases too: the task id is a random UUID, the row id orders the task's events. `npm run outbox`
 * names a dead event by it, as the partner's logs do.
 */
export function webhookIdOf(row: Pick<OutboxUpdate, 'taskId' | 'id'>): string {
  return `msg_${row.taskId}_${row.id}`;
}

/**
 * Every failure is retried: the partner's endpoint has no say over a task (no refusal evidence, no rejection, unlike
 * the platform's 404/403), and a 4xx there is most often a deployment or a secret being fixed. An event that keeps
 * failing ages into a dead letter after the retry policy's giveUpAfterMs (24 h).
 */
function outcomeOf(status: number, retryAfter: string | null, text: string, now: number, truncated = false): UpdateOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfter, now) : undefined;
  const reason = status === 429 ? 'rate_limited' : status === 408 ? 'request_timeout' : status >= 500 ? 'server_error' : 'client_error';
  const detail = status >= 400 && status < 500 && text !== '' ? `HTTP ${status}: ${bodyStart(text, truncated)}` : `HTTP ${status}`;
  return { kind: 'retryable', reason, status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }), detail };
}
