import type { OfferDefinition } from './workflow-definition.ts';

/*
 * The rules of a step's offer that the server and the stand-in apply alike (docs/connecting-your-backend.md#offers):
 * when an offer counts as empty, and how long an empty one is kept before the partner's backend is asked again.
 */

/** A minute: long enough that a reload loop cannot hammer the partner's backend, short enough for a worker waiting. */
const DEFAULT_CHECK_AGAIN_AFTER_MS = 60_000;
const MIN_CHECK_AGAIN_AFTER_MS = 1_000;
const MAX_CHECK_AGAIN_AFTER_MS = 24 * 60 * 60 * 1_000;

/** How long an empty offer is kept before it is asked again: the step's `checkAgainAfterMs`, kept within its bounds. */
export function checkAgainAfterMsOf(offer: Pick<OfferDefinition, 'checkAgainAfterMs'>): number {
  const chosen = offer.checkAgainAfterMs;
  if (chosen === undefined || !Number.isFinite(chosen)) return DEFAULT_CHECK_AGAIN_AFTER_MS;
  return Math.min(MAX_CHECK_AGAIN_AFTER_MS, Math.max(MIN_CHECK_AGAIN_AFTER_MS, Math.round(chosen)));
}

/** A problem with the step's `checkAgainAfterMs` (workflowProblems), or undefined. */
export function checkAgainProblem(offer: Pick<OfferDefinition, 'checkAgainAfterMs'>): string | undefined {
  const chosen = offer.checkAgainAfterMs;
  if (chosen === undefined) return undefined;
  return Number.isInteger(chosen) && chosen >= MIN_CHECK_AGAIN_AFTER_MS && chosen <= MAX_CHECK_AGAIN_AFTER_MS
    ? undefined
    : `its offer's checkAgainAfterMs must be a whole number of ms from ${MIN_CHECK_AGAIN_AFTER_MS} to ${MAX_CHECK_AGAIN_AFTER_MS}, got ${chosen}`;
}

/**
 * Whether an offer has nothing to choose from: the step's `isEmpty`, else the default rule (an empty array, or an
 * object whose array-valued fields, one at least, are all empty). An `isEmpty` that throws on an offer it cannot read
 * counts it as not empty: the offer is then kept, as every offer was before empty ones were asked again.
 */
export function offerIsEmpty(offer: Pick<OfferDefinition, 'isEmpty'>, value: unknown): boolean {
  try {
    return offer.isEmpty ? offer.isEmpty(value) === true : hasNoItems(value);
  } catch {
    return false;
  }
}

function hasNoItems(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== 'object' || value === null) return false;
  const lists = Object.values(value).filter((field) => Array.isArray(field));
  return lists.length > 0 && lists.every((list) => list.length === 0);
}
