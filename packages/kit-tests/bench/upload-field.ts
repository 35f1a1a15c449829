import type { FileRule } from '@partner-task-kit/workflow/file-field';

/**
 * The file field the upload benchmark sends to: a field of its own, so that the benchmark does not depend on which
 * example workflow has one, and takes a PDF too (kept as it is: the transport alone, no decoding). 10 MB, the default
 * limit of a field (docs/configuration.md#uploads). On the default workflow's first step, where each of its new tasks
 * is: a file is taken for the step the worker can answer now only (docs/api.md#uploads).
 */
export const BENCH_UPLOAD_FIELD = { stepId: 'welcome', field: 'file' } as const;

const benchRule: FileRule = { types: ['image/jpeg', 'image/png', 'application/pdf'], maxBytes: 10 * 1024 * 1024 };

export function benchFileRuleOf(_workflowId: string, stepId: string, field: string): FileRule | undefined {
  return stepId === BENCH_UPLOAD_FIELD.stepId && field === BENCH_UPLOAD_FIELD.field ? benchRule : undefined;
}

export const BENCH_UPLOAD_MAX_BYTES = benchRule.maxBytes;
