import { z } from 'zod/mini';
import { isoDateTimeField } from './contract-fields.ts';

/**
 * `GET /api/task/steps/:stepId/offer` (docs/api.md#get-apitaskstepsstepidoffer): the offer the partner's backend made
 * for the step, as kept with the task. The server has checked it with the step's own offer schema; the step's screen
 * parses it with that schema again, so this checks the envelope only.
 */
export const stepOfferResponseSchema = z.object({
  offer: z.unknown(),
  /** When the server loaded it from the partner's backend. */
  loadedAt: isoDateTimeField,
});
export type StepOfferResponse = z.infer<typeof stepOfferResponseSchema>;
