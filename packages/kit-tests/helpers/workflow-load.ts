import { randomUUID } from 'node:crypto';
import { updateLabels } from '@partner-task-kit/workflow/contract/status-updates';
import { POLICY_VERSION, safetyTraining } from '../fixtures/workflows/safety-training/definition';
import { UPSTREAM_HEADER } from './caddy-proxy';

/** One request of the load: when it was asked and answered (performance.now()), and how. */
export interface LoadRequest {
  path: string;
  startedAt: number;
  endedAt: number;
  /** The HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  /** The instance that answered, from the proxy's header; undefined when the proxy itself answered. */
  upstream: string | undefined;
  /** The error code of a refusal, or the network error. */
  error?: string;
}

/** One worker's task: the labels of the updates its 2xx answers acknowledged, in the order they were acknowledged. */
interface LoadTask {
  assignedTaskUuid: string;
  acked: string[];
}

export interface WorkflowLoad {
  requests: LoadRequest[];
  tasks: LoadTask[];
  /** Requests answered 2xx so far. */
  acknowledged(): number;
  /** Ends the load once every worker has finished its current request. */
  stop(): Promise<void>;
}

const WORKFLOW = safetyTraining;

/** Each step's data as a worker who reads carefully sends it: every step advances, the quiz passes. */
const stepData: Record<string, unknown> = {
  welcome: {},
  policy: { acknowledged: true, policyVersion: POLICY_VERSION },
  quiz: { answers: { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' } },
  signature: { fullName: 'Ana Rolling', confirmed: true },
};

/**
 * The label of the update a saved step sends (packages/server/src/task-progress/status-updates.ts): the step the worker is on now,
 * or the completion after the last one. Built from the contract's own label table, so the check below compares the
 * platform's record with what the server meant to send, step by step.
 */
function labelAfter(stepIndex: number): string {
  const next = WORKFLOW.steps[stepIndex + 1];
  if (!next) return updateLabels.completed();
  return updateLabels.stepSaved({ index: stepIndex + 1, count: WORKFLOW.steps.length, name: next.shortName });
}

/**
 * Workers doing the safety training through `url`, each one request at a time with `pauseMs` between: open a session
 * for a new task, save its four steps, then a new task. Every request is recorded; a task whose request failed is
 * left there (what it committed is no longer known) and the worker takes a new one.
 */
export function startWorkflowLoad(url: string, options: { workers: number; pauseMs: number }): WorkflowLoad {
  const requests: LoadRequest[] = [];
  const tasks: LoadTask[] = [];
  let running = true;
  const pause = () => new Promise((resolve) => setTimeout(resolve, options.pauseMs * (0.5 + Math.random())));

  const send = async (path: string, body: unknown, token?: string): Promise<unknown> => {
    const record: LoadRequest = { path, startedAt: performance.now(), endedAt: 0, status: 0, upstream: undefined };
    requests.push(record);
    try {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
        // Far beyond any answer of a healthy deployment: a request that hangs is a failure, not a wait.
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      record.status = response.status;
      record.upstream = response.headers.get(UPSTREAM_HEADER) ?? undefined;
      if (!response.ok) record.error = text.slice(0, 300);
      return response.ok ? (JSON.parse(text) as unknown) : undefined;
    } catch (error) {
      record.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return undefined;
    } finally {
      record.endedAt = performance.now();
    }
  };

  const driveOneTask = async () => {
    const task: LoadTask = { assignedTaskUuid: randomUUID(), acked: [] };
    tasks.push(task);
    const context = {
      wxWorkerUuid: randomUUID(),
      wxAssignedTaskUuid: task.assignedTaskUuid,
      wxTaskFlowUuid: randomUUID(),
      wxCompanyUuid: randomUUID(),
      workflow: WORKFLOW.id,
    };
    const opened = (await send('/api/session', context)) as { token?: string } | undefined;
    if (!opened?.token) return;
    task.acked.push(updateLabels.opened());
    for (const [index, step] of WORKFLOW.steps.entries()) {
      await pause();
      if (!running) return;
      if ((await send(`/api/task/steps/${step.id}`, { data: stepData[step.id] }, opened.token)) === undefined) return;
      task.acked.push(labelAfter(index));
    }
  };

  const workers = Array.from({ length: options.workers }, async (_, index) => {
    // Staggered, so the workers' requests spread over the pause instead of arriving together.
    await new Promise((resolve) => setTimeout(resolve, (options.pauseMs * index) / options.workers));
    while (running) {
      await driveOneTask();
      await pause();
    }
  });

  return {
    requests,
    tasks,
    acknowledged: () => requests.filter((request) => request.status >= 200 && request.status < 300).length,
    stop: async () => {
      running = false;
      await Promise.all(workers);
    },
  };
}
