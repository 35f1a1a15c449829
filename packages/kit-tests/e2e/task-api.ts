import { ASSIGNED_TASK_HEADER } from '@partner-task-kit/workflow/contract/http-headers';
import { sessionResponseSchema } from '@partner-task-kit/workflow/contract/session';
import type { TaskView } from '@partner-task-kit/workflow/contract/task-view';
import { POLICY_VERSION } from '../fixtures/workflows/safety-training/definition';
import type { Assignment } from './portal-fixtures';

/** The task API as another window of the same worker would use it: for a test's setup and its expected values. */
interface TaskApi {
  /** POST /api/session: opens (or creates) the assignment's task and answers its view. */
  view(): Promise<TaskView>;
  /** Runs the safety training to completion through the API, as a worker would have done earlier in another window. */
  completeTraining(): Promise<void>;
  /** Saves the training's first two steps through the API: the task waits on its third, the quiz. */
  reachQuiz(): Promise<void>;
}

/** The quiz's right answers, as the server grades them (they never reach the browser). */
const passingAnswers = { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' };

export function taskApi(baseURL: string, assignment: Assignment): TaskApi {
  const context = {
    wxWorkerUuid: assignment.workerUuid,
    wxAssignedTaskUuid: assignment.assignedTaskUuid,
    wxTaskFlowUuid: assignment.taskFlowUuid,
    wxCompanyUuid: assignment.companyUuid,
  };
  const headers = { 'content-type': 'application/json', [ASSIGNED_TASK_HEADER]: assignment.assignedTaskUuid };
  async function post(path: string, body: unknown, token?: string): Promise<unknown> {
    const response = await fetch(`${baseURL}${path}`, {
      method: 'POST',
      headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  }
  const openSession = async () => sessionResponseSchema.parse(await post('/api/session', context));
  const reachQuiz = async () => {
    const { token } = await openSession();
    await post('/api/task/steps/welcome', { data: {} }, token);
    await post('/api/task/steps/policy', { data: { acknowledged: true, policyVersion: POLICY_VERSION } }, token);
    return token;
  };
  return {
    view: async () => (await openSession()).task,
    reachQuiz: async () => void (await reachQuiz()),
    completeTraining: async () => {
      const token = await reachQuiz();
      await post('/api/task/steps/quiz', { data: { answers: passingAnswers } }, token);
      await post('/api/task/steps/signature', { data: { fullName: 'Ana López', confirmed: true } }, token);
    },
  };
}
