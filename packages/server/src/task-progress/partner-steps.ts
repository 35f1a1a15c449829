import type { TaskView } from '@partner-task-kit/workflow/contract';
import type { TaskServiceDeps } from './locked-task.ts';
import { resolveAwaitedStep, type PartnerStepInput } from './partner-step.service.ts';

/**
 * Resolves a step that awaits the partner (`completedBy: 'partner'`), in one task transaction (inTaskTransaction in
 * locked-task.ts), and answers the task as it then is (other fields of the answer are ignored). Errors are ApiErrors: `task_not_found` (also for another
 * company's task), `step_not_awaiting_partner`, `invalid_step_data`, `task_closed`. The route keeps each answer
 * under its Idempotency-Key (packages/server/src/partner-api/idempotent-answer.ts), so a retry never resolves a step twice.
 */
export type ResolvePartnerStep = (deps: TaskServiceDeps, input: PartnerStepInput) => Promise<{ task: TaskView }>;

/** The engine's decision for a step the partner completes (partner-step.service.ts). */
export const resolvePartnerStep: ResolvePartnerStep = (deps, input) => resolveAwaitedStep(deps, input);
