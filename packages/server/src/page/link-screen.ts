import { currentStepOf, isSameContext, type TaskContext } from '@partner-task-kit/workflow/contract';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../store/store.ts';
import { findTaskAtLink, type TaskAtLink } from '../store/task-link.repository.ts';
import { findFlowWorkflow } from '../store/tenants.repository.ts';
import type { CompanyGate } from '../tenants/company-credentials.ts';

/**
 * Which screen the HTML of a link holds (docs/architecture.md#how-a-link-is-answered): the first step of a workflow,
 * prerendered, for a task nobody has begun; the neutral opening screen for any other, whose own screen the page
 * renders once the task's view has come. Never a step that is not the worker's.
 */
export type LinkScreen = { kind: 'first'; workflowId: string } | { kind: 'opening' };

export interface LinkScreenDeps {
  store: Store;
  companies: CompanyGate;
  workflows: WorkflowCatalog;
  log: FastifyBaseLogger;
  /** How long a GET waits for the store before it answers with the opening screen. */
  timeoutMs: number;
}

/**
 * Reads, never writes (a link scanner's GET changes nothing) and never fails: a store that errs or is slow answers
 * with the opening screen, which is right for every task, rather than a 5xx or a page that waits on the database.
 */
export async function linkScreen(deps: LinkScreenDeps, context: TaskContext, linkWorkflow: string | undefined): Promise<LinkScreen> {
  // docs/decisions/008-a-deputy-for-many-companies.md: the session refuses a company nothing acts for; no step first.
  if (!deps.companies.serves(context.wxCompanyUuid)) return { kind: 'opening' };
  try {
    return await withinTime(choose(deps, context, linkWorkflow), deps.timeoutMs);
  } catch (error) {
    deps.log.warn({ event: 'link_screen_unread', err: error }, 'the store did not say how far a task is: its link got the opening screen');
    return { kind: 'opening' };
  }
}

async function choose(deps: LinkScreenDeps, context: TaskContext, linkWorkflow: string | undefined): Promise<LinkScreen> {
  const { db } = deps.store;
  // Found by the assigned task id alone, as the task API finds it (task-progress/task.service.ts, openTask); a task
  // bound to another worker, flow or company is refused there, so it gets no step here either.
  const task = await findTaskAtLink(db, context.wxAssignedTaskUuid);
  if (task === undefined) {
    // A new task takes the link's workflow, else the one its company mapped its flow to, else the default (openTask).
    if (linkWorkflow !== undefined) return { kind: 'first', workflowId: linkWorkflow };
    const mapped = await findFlowWorkflow(db, { companyUuid: context.wxCompanyUuid, taskFlowUuid: context.wxTaskFlowUuid });
    return { kind: 'first', workflowId: mapped !== undefined && deps.workflows.find(mapped) ? mapped : deps.workflows.defaultId };
  }
  return isUnbegun(deps.workflows, task, context, linkWorkflow) ? { kind: 'first', workflowId: task.workflowId } : { kind: 'opening' };
}

/**
 * The task is the worker's, waits on its first step and nothing of the attempt is saved: its first step, prerendered,
 * is then the very screen its view renders. A link naming another workflow than the task's is shown the opening screen:
 * the page would not keep a first step of a workflow it was not linked to (packages/page/src/task/task-session.tsx).
 */
function isUnbegun(workflows: WorkflowCatalog, task: TaskAtLink, context: TaskContext, linkWorkflow: string | undefined): boolean {
  const bound = {
    wxAssignedTaskUuid: task.assignedTaskUuid,
    wxWorkerUuid: task.workerUuid,
    wxTaskFlowUuid: task.taskFlowUuid,
    wxCompanyUuid: task.companyUuid,
  };
  const steps = workflows.find(task.workflowId)?.definition.steps ?? [];
  // As the task's view names its current step (task-progress/task-view.ts): a stored null is the first.
  const current = currentStepOf({ currentStep: task.currentStep, steps });
  return (
    isSameContext(bound, context) &&
    !task.rejected &&
    task.status === 'ready' &&
    !task.started &&
    current !== undefined &&
    current === steps[0]?.id &&
    (linkWorkflow === undefined || linkWorkflow === task.workflowId)
  );
}

function withinTime<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
