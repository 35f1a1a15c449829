import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { jsonRequest } from './json-request.ts';
import { previewKeys } from './preview-keys.ts';

/** GET /emulator/control/partner-backend: the built-in receiver's events for a task, the step it waits on, its files. */
const receivedEventSchema = z.object({
  receivedAt: z.number(),
  webhookId: z.string(),
  type: z.string(),
  verified: z.boolean(),
  verifyError: z.optional(z.string()),
  body: z.unknown(),
});
export type ReceivedEvent = z.infer<typeof receivedEventSchema>;

/** What the stand-in answers offer requests with (packages/dev/src/partner-backend/offer-stand-in.ts). */
export const offerAnswerModes = ['offers', 'none', 'error', 'slow'] as const;
export type OfferAnswerMode = (typeof offerAnswerModes)[number];

const offerRequestSchema = z.object({
  receivedAt: z.number(),
  webhookId: z.string(),
  workflowId: z.string(),
  stepId: z.string(),
  verified: z.boolean(),
  answeredWith: z.enum(offerAnswerModes),
  body: z.unknown(),
});
export type ReceivedOfferRequest = z.infer<typeof offerRequestSchema>;

/** A file of the task's answers, as the partner API describes it (docs/connecting-your-backend.md#files). */
const taskFileSchema = z.object({
  stepId: z.string(),
  field: z.string(),
  id: z.string(),
  contentType: z.string(),
  bytes: z.number(),
  sha256: z.string(),
});
export type TaskFile = z.infer<typeof taskFileSchema>;

const partnerBackendSchema = z.object({
  receiver: z.boolean(),
  events: z.array(receivedEventSchema),
  /** Null when PARTNER_BACKEND_URL sends offer requests elsewhere. */
  offers: z.nullable(z.object({ mode: z.enum(offerAnswerModes), requests: z.array(offerRequestSchema) })),
  awaiting: z.nullable(
    z.object({
      stepId: z.string(),
      shortName: z.string(),
      /** `workerMessage`: what a failed result tells the worker (the partner API's field of that name). */
      results: z.array(z.object({ label: z.string(), data: z.unknown(), workerMessage: z.optional(z.unknown()) })),
    }),
  ),
  files: z.array(taskFileSchema),
});

/** Polled like the other live panels: a partner step resolved elsewhere (curl, a test) shows within a second. */
export function partnerBackendQueryOptions(controlPath: string, assignedTaskUuid: string) {
  return queryOptions({
    queryKey: previewKeys.partnerBackend(assignedTaskUuid),
    queryFn: () =>
      jsonRequest('GET', `${controlPath}/partner-backend?assignedTaskUuid=${encodeURIComponent(assignedTaskUuid)}`, partnerBackendSchema),
    refetchInterval: 1000,
  });
}

/** Where the panel gets a file's bytes: the control API passes on the partner API's files route (the preview's key). */
export function taskFileUrl(controlPath: string, assignedTaskUuid: string, uploadId: string): string {
  return `${controlPath}/partner-backend/tasks/${encodeURIComponent(assignedTaskUuid)}/uploads/${encodeURIComponent(uploadId)}`;
}

/** Resolves the waiting step through the real partner API (the server calls it with the preview's own key). */
export function useResolvePartnerStep(controlPath: string, assignedTaskUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ stepId, data, workerMessage }: { stepId: string; data: unknown; workerMessage?: unknown }) =>
      jsonRequest(
        'POST',
        `${controlPath}/partner-backend/tasks/${encodeURIComponent(assignedTaskUuid)}/steps/${encodeURIComponent(stepId)}`,
        z.unknown(),
        workerMessage === undefined ? { data } : { data, workerMessage },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: previewKeys.partnerBackend(assignedTaskUuid) }),
  });
}

/**
 * Chooses what the stand-in answers the task's next offer requests with, until chosen again. The choice is written
 * into the polled state at once and again when stored: shown only while the request is pending, the old choice of
 * the cache, or of a poll answered meanwhile, would flip the radio back until the next poll.
 */
export function useSetOfferMode(controlPath: string, assignedTaskUuid: string) {
  const queryClient = useQueryClient();
  const { queryKey } = partnerBackendQueryOptions(controlPath, assignedTaskUuid);
  const showMode = (mode: OfferAnswerMode) =>
    queryClient.setQueryData(queryKey, (state) => (state?.offers ? { ...state, offers: { ...state.offers, mode } } : state));
  return useMutation({
    mutationFn: (mode: OfferAnswerMode) =>
      jsonRequest('POST', `${controlPath}/partner-backend/offer-mode`, z.unknown(), { assignedTaskUuid, mode }),
    onMutate: async (mode: OfferAnswerMode) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey);
      showMode(mode);
      return { before };
    },
    // Again once stored: a poll answered while the request was on its way may have brought the old choice back.
    onSuccess: (_answer, mode) => showMode(mode),
    onError: (_error, _mode, context) => queryClient.setQueryData(queryKey, context?.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
