import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.ts';
import { apiErrorStatus, type ErrorBody } from '@partner-task-kit/workflow/contract';
import { ApiError, apiError } from '../api-error.ts';
import type { StoreDb } from '../store/database-schema.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyRecord,
  IDEMPOTENCY_KEPT_MS,
  releaseIdempotencyKey,
} from '../store/partner-idempotency.repository.ts';
/**
 * A key claimed this long ago without an answer belongs to a request that died (a crash between the step's commit and
 * storing its answer): a retry may take it over. The step itself refuses to be resolved twice.
 */
const ABANDONED_MS = 60_000;

export interface Answer {
  status: number;
  body: unknown;
  replayed: boolean;
}

export interface IdempotentRequest {
  partnerKeyId: string;
  idempotencyKey: string;
  /** The assigned task the request names, in lower case: erasing, releasing or purging the task deletes the answer. */
  taskKey: string;
  /** What makes two requests the same: method, path and body. */
  request: unknown;
  now: number;
}

/**
 * Answers a request once per Idempotency-Key (scoped to the partner key): the same key with the same request gets the
 * stored answer, status and body, without doing anything again; with another request, 409 `idempotency_key_reused`.
 * Answers the caller could act on are kept, successes and refusals alike; a 429 or a fault of ours (5xx) is not, so
 * the same key may be tried again. Records past their 24 hours are taken over by a new claim, and deleted by the
 * retention job (docs/operations.md#retention).
 */
export function idempotentAnswers(deps: { db: StoreDb }) {
  return async (input: IdempotentRequest, work: () => Promise<unknown>): Promise<Answer> => {
    const { db } = deps;
    const id = { partnerKeyId: input.partnerKeyId, idempotencyKey: input.idempotencyKey };
    const requestHash = createHash('sha256').update(canonicalJson(input.request)).digest('hex');
    const claimed = await claimIdempotencyKey(db, {
      ...id,
      taskKey: input.taskKey,
      requestHash,
      now: input.now,
      expiresBefore: input.now - IDEMPOTENCY_KEPT_MS,
      abandonedBefore: input.now - ABANDONED_MS,
    });
    if (!claimed) {
      const record = await findIdempotencyRecord(db, id);
      if (record && record.requestHash !== requestHash) {
        throw apiError(
          'idempotency_key_reused',
          'This Idempotency-Key was used for another request; use a new key for a new request.',
          'Idempotency-Key',
        );
      }
      if (!record?.answer) {
        throw apiError(
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still being answered; try again in a moment.',
          'Idempotency-Key',
        );
      }
      return { ...record.answer, replayed: true };
    }
    let answer: { status: number; body: unknown };
    try {
      answer = { status: 200, body: await work() };
    } catch (error) {
      const status = error instanceof ApiError ? apiErrorStatus[error.code] : 500;
      if (!(error instanceof ApiError) || status >= 500 || status === 429) {
        await releaseIdempotencyKey(db, id);
        throw error;
      }
      const body: ErrorBody = {
        error: { code: error.code, message: error.message, ...(error.field === undefined ? {} : { field: error.field }) },
      };
      answer = { status, body };
    }
    await completeIdempotencyKey(db, { ...id, ...answer });
    return { ...answer, replayed: false };
  };
}
