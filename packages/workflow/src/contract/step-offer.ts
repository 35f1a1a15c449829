import { z } from 'zod/mini';
import { isoDateTimeField, nonNegativeInt } from './contract-fields.ts';

/** A language tag as BCP 47 writes it (`en`, `es`, `es-MX`): what `Intl` accepts, at most 35 characters. */
const languageTag = z
  .string()
  .check(
    z.maxLength(35, 'must be a language tag such as "en" or "es"'),
    z.refine(isLanguageTag, 'must be a language tag such as "en" or "es"'),
  );

function isLanguageTag(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

/**
 * The query of `GET /api/task/steps/:stepId/offer` (docs/api.md#get-apitaskstepsstepidoffer): the page's language,
 * sent on to the partner's backend so that it may answer in it.
 */
export const stepOfferQuerySchema = z.object({ locale: z.optional(languageTag) });

/**
 * `GET /api/task/steps/:stepId/offer` (docs/api.md#get-apitaskstepsstepidoffer): the offer the partner's backend made
 * for the step, as kept with the task. The server has checked it with the step's own offer schema; the step's screen
 * parses it with that schema again, so this checks the envelope only.
 */
export const stepOfferResponseSchema = z.object({
  offer: z.unknown(),
  /** When the server loaded it from the partner's backend. */
  loadedAt: isoDateTimeField,
  /** Nothing to choose from, as the step's offer declaration tells (its `isEmpty`). */
  empty: z.boolean(),
  /** An empty offer of the current step: when the server will ask the partner's backend again (its clock). */
  checkAgainAt: z.optional(isoDateTimeField),
  /** The same, in ms from this answer: what the page waits, whatever its own clock says. */
  checkAgainInMs: z.optional(nonNegativeInt),
});
export type StepOfferResponse = z.infer<typeof stepOfferResponseSchema>;
