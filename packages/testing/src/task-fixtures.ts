import type { TaskContext, TaskView } from '@partner-task-kit/workflow/contract';

/** A valid context (the four wx* UUIDs the portal appends) and the task view a session answers with, for page tests. */
export const pageContext: TaskContext = {
  wxWorkerUuid: '11111111-1111-4111-8111-111111111111',
  wxAssignedTaskUuid: '22222222-2222-4222-8222-222222222222',
  wxTaskFlowUuid: '33333333-3333-4333-8333-333333333333',
  wxCompanyUuid: '44444444-4444-4444-8444-444444444444',
};

/**
 * A task of a one-step workflow, not started: what a session answers on a first visit. A test of a workflow's screens
 * spreads it with its own `workflow`, `currentStep` and `stepData` (renderScreen sets `currentStep`).
 */
export const readyTaskView: TaskView = {
  id: 't1',
  assignedTaskUuid: pageContext.wxAssignedTaskUuid,
  workflow: { id: 'sample-workflow', estimatedMinutes: 5, steps: [{ id: 'first-step' }] },
  status: 'ready',
  attempt: 1,
  started: false,
  currentStep: 'first-step',
  progress: { position: 1, total: 1 },
  canGoBack: false,
  canRestart: true,
  stepData: {},
  gradedAttempts: {},
  failure: null,
  history: [],
  updatedAt: '2026-03-01T09:00:00.000Z',
};
