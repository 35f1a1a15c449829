import { queryOptions } from '@tanstack/react-query';
import { stepOfferResponseSchema, type StepOfferResponse } from '@partner-task-kit/workflow/contract';
import type { ApiClient } from './api-client.ts';
import { taskKeys } from './query-keys.ts';

/**
 * GET /api/task/steps/:stepId/offer (docs/api.md#get-apitaskstepsstepidoffer): the step's offer, as the server keeps
 * it, asked in the page's language (`locale`), which the server passes on to the partner's backend.
 */
function getStepOffer(client: ApiClient, stepId: string, locale: string | undefined): Promise<StepOfferResponse> {
  const query = locale === undefined ? '' : `?locale=${encodeURIComponent(locale)}`;
  return client.call('GET', `/api/task/steps/${encodeURIComponent(stepId)}/offer${query}`, stepOfferResponseSchema);
}

/**
 * The offer of the current step, or of a step answered earlier (what the worker chose from, for a later screen to
 * show): the server answers the one it kept for that answer and asks nobody.
 */
export function stepOfferQueryOptions(client: ApiClient, stepId: string, locale?: string) {
  return queryOptions({
    queryKey: taskKeys.offer(client.context, stepId),
    queryFn: () => getStepOffer(client, stepId, locale),
    // The server has tried the partner's backend again within its timeout already: the worker's "Try again" decides.
    retry: false,
    // Dropped when the screen goes: the worker may go back and change an answer the offer depends on, and must not
    // see the old offer, even for a moment, when they return.
    gcTime: 0,
  });
}
