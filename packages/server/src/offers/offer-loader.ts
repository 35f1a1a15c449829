import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ZodMiniType } from 'zod/mini';
import type { Clock } from '../clock.ts';
import { signWebhook } from '../delivery/webhook-signature.ts';
import type { HttpTransport } from '../upstream/http-transport.ts';
import { classifyFetchError } from '../upstream/upstream-outcome.ts';

/** The partner's backend that offers are asked of, and the secrets the requests are signed with (two during a rotation). */
export interface OfferBackend {
  /** PARTNER_BACKEND_URL, without a trailing slash: `/offers/<workflowId>/<stepId>` is appended. */
  url: string;
  secrets: () => readonly string[];
}

/** The body of an offer request, in the `{type, timestamp, data}` shape of the events (docs/connecting-your-backend.md#offers). */
export interface OfferRequestBody {
  type: 'offer.requested';
  timestamp: string;
  data: {
    assignedTaskUuid: string;
    workerUuid: string;
    taskFlowUuid: string;
    companyUuid: string;
    workflowId: string;
    stepId: string;
    attempt: number;
    /** The worker's language as the page speaks it (`en`, `es`), so the backend may answer in it; null when the page did not say. */
    locale: string | null;
    /** The answers the step's offer depends on, never a sensitive value (packages/server/src/offers/offer-basis.ts). */
    answers: Record<string, unknown>;
  };
}

export type OfferLoad = { ok: true; offer: unknown } | { ok: false; reason: string };

/** An offer is a few dozen slots or a contract text; a backend that sends more is answering something else. */
const MAX_OFFER_BYTES = 256 * 1024;
/** The first retry waits this long, each next one twice as long, as long as the budget leaves room for another try. */
const FIRST_BACKOFF_MS = 100;
/** A try with less time than this left would not be answered anyway. */
const MIN_TRY_MS = 50;

/**
 * Asks the partner's backend for a step's offer: a signed POST (the Standard Webhooks headers, as events are signed,
 * so the partner verifies both with one library), tried again with a doubling backoff after an answer that may be
 * passing (no answer, a 5xx, 408, 429), all within `timeoutMs`: the worker is waiting. An answer that is not JSON,
 * too large, or not of the step's offer schema is junk and not asked again. The loop is written here because the
 * budget is the whole load's, which retry libraries (per-attempt timeouts) do not keep.
 */
export async function loadOffer(input: {
  backend: OfferBackend;
  send: HttpTransport;
  clock: Clock;
  timeoutMs: number;
  schema: ZodMiniType;
  body: OfferRequestBody;
}): Promise<OfferLoad> {
  const { backend, send, clock, timeoutMs, schema, body } = input;
  const { workflowId, stepId } = body.data;
  const url = `${backend.url}/offers/${encodeURIComponent(workflowId)}/${encodeURIComponent(stepId)}`;
  const text = JSON.stringify(body);
  // One id for every try of this load, as for an event's retries: the backend may drop a repeat.
  const id = `msg_offer_${randomUUID()}`;
  const deadline = performance.now() + timeoutMs;
  let backoffMs = FIRST_BACKOFF_MS;
  let reason = 'no try made';
  for (;;) {
    const left = Math.floor(deadline - performance.now());
    if (left < MIN_TRY_MS) return { ok: false, reason };
    const timestampSeconds = Math.floor(clock.now() / 1000);
    try {
      const reply = await send(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(timestampSeconds),
          'webhook-signature': signWebhook(backend.secrets(), { id, timestampSeconds, body: text }),
        },
        body: text,
        timeoutMs: left,
        maxAnswerBytes: MAX_OFFER_BYTES,
      });
      if (reply.status >= 200 && reply.status < 300) return offerOf(reply.text, reply.truncated, schema);
      reason = `HTTP ${reply.status}`;
      if (!(reply.status >= 500 || reply.status === 408 || reply.status === 429)) return { ok: false, reason };
    } catch (error) {
      reason = classifyFetchError(error, left).detail;
    }
    if (deadline - performance.now() < backoffMs + MIN_TRY_MS) return { ok: false, reason };
    await sleep(backoffMs);
    backoffMs *= 2;
  }
}

function offerOf(text: string, truncated: boolean, schema: ZodMiniType): OfferLoad {
  if (truncated) return { ok: false, reason: `an answer larger than ${MAX_OFFER_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'an answer that is not JSON' };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `an answer not of the step's offer schema (${issue?.path.join('.') || 'offer'}: ${issue?.message})` };
  }
  return { ok: true, offer: parsed.data };
}
