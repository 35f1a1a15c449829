import { z } from 'zod';
import { contextUuidSchema } from '../../src/contract/partner-task-update';
import { taskActions } from './assignment-types';
import { invalidBodyError } from './body-issues';
import { tokenShapes, unknownTaskModes } from './emulator-options';
import { faultEndpoints, faultKinds } from './fault-queue';
import { upstreamEndpoints } from './request-log';

const nonBlank = z.string().refine((value) => value.trim() !== '', 'must not be blank');

/** POST /control/assignments: the options of spec 2.4 (title and iframe URL required) and the context of spec 2.5. */
export const createAssignmentSchema = z
  .object({
    title: nonBlank,
    iframeUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    // spec 2.4: a duration whose format is not stated, so any text is kept as given.
    estimatedCompletionTime: nonBlank.optional(),
    endEvent: nonBlank.optional(),
    appendTaskContext: z.boolean().default(true),
    hideTaskCompletedButton: z.boolean().default(false),
    requireReview: z.boolean().default(false),
    workerUuid: contextUuidSchema.optional(),
    assignedTaskUuid: contextUuidSchema.optional(),
    taskFlowUuid: contextUuidSchema.optional(),
    companyUuid: contextUuidSchema.optional(),
  })
  .strict();

export const actionSchema = z.enum(taskActions);

export const faultSchema = z
  .object({
    endpoint: z.enum(faultEndpoints),
    kind: z.enum(faultKinds),
    count: z.int().min(1).max(1_000_000).default(1),
    status: z.int().min(400, 'must be an error status, 400 to 599').max(599, 'must be an error status, 400 to 599').optional(),
    retryAfterSeconds: z.int().min(0).max(86_400).optional(),
    delayMs: z.int().min(0).max(600_000).optional(),
    after: z.boolean().optional(),
    assignedTaskUuid: contextUuidSchema.optional(),
  })
  .strict()
  .superRefine((fault, context) => {
    if (fault.assignedTaskUuid !== undefined && fault.endpoint !== 'partnerTask') {
      context.addIssue({ code: 'custom', path: ['assignedTaskUuid'], message: 'applies only to endpoint partnerTask' });
    }
    const onlyFor = (field: 'status' | 'retryAfterSeconds' | 'delayMs', kind: string) => {
      if (fault[field] !== undefined && fault.kind !== kind) {
        context.addIssue({ code: 'custom', path: [field], message: `applies only to kind ${kind}` });
      }
    };
    onlyFor('status', 'status');
    onlyFor('retryAfterSeconds', 'rateLimit');
    onlyFor('delayMs', 'delay');
    if (fault.after !== undefined && fault.kind !== 'delay' && fault.kind !== 'drop') {
      context.addIssue({ code: 'custom', path: ['after'], message: 'applies only to kinds delay and drop' });
    }
    if (fault.kind === 'delay' && fault.delayMs === undefined) {
      context.addIssue({ code: 'custom', path: ['delayMs'], message: 'is required for kind delay' });
    }
    if (fault.kind === 'expireToken' && fault.endpoint === 'token') {
      context.addIssue({ code: 'custom', path: ['endpoint'], message: 'expireToken needs an endpoint that takes a bearer token' });
    }
  });

/** DELETE /control/faults: all faults, or `?assignedTaskUuid=` only those aimed at that task. */
export const clearFaultsQuerySchema = z.object({ assignedTaskUuid: contextUuidSchema.optional() });

export const settingsSchema = z
  .object({
    tokenShape: z.enum(tokenShapes).optional(),
    unknownTasks: z.enum(unknownTaskModes).optional(),
    acceptViewed: z.boolean().optional(),
  })
  .strict();

export const advanceClockSchema = z.object({ advanceMs: z.int().min(0, 'must be 0 or more: the clock only moves ahead') }).strict();

export const requestsQuerySchema = z.object({
  endpoint: z.enum(upstreamEndpoints).optional(),
  limit: z.coerce.number().int().min(1).max(1_000_000).optional(),
});

/** Parses control input or throws a 400 naming the field. */
export function parseControl<T extends z.ZodType>(schema: T, input: unknown, code = 'invalid_body'): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidBodyError(result.error, input, code);
  return result.data;
}
