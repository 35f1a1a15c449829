import { contextParamNames, taskContextSchema, type ContextParamName, type TaskContext } from '@partner-task-kit/workflow/contract';

export type ContextProblem = { param: ContextParamName; kind: 'missing' | 'invalid' | 'repeated'; received?: string };

export type ContextReading = { ok: true; context: TaskContext } | { ok: false; problems: ContextProblem[] };

/**
 * docs/platform.md#task-context: the portal appends the four wx* parameters when "Append task context" is on (docs/platform.md#partner-task-configuration). Each is checked
 * on its own so the error screen can name every bad one, not just the first.
 */
export function readTaskContext(search: string): ContextReading {
  const params = new URLSearchParams(search);
  const problems: ContextProblem[] = [];
  const values: Partial<Record<ContextParamName, string>> = {};
  for (const param of contextParamNames) {
    const all = params.getAll(param);
    const value = all[0];
    if (value === undefined || value.trim() === '') problems.push({ param, kind: 'missing' });
    else if (all.length > 1) problems.push({ param, kind: 'repeated' });
    else if (!taskContextSchema.shape[param].safeParse(value).success) problems.push({ param, kind: 'invalid', received: preview(value) });
    // Kept exactly as the portal sent it: the platform names the task by this string in its paths (docs/platform.md#the-update-endpoint).
    else values[param] = value;
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, context: taskContextSchema.parse(values) };
}

/** Enough of a bad value to recognise it, never a whole pasted URL. */
function preview(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
