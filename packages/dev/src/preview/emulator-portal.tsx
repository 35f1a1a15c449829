import { Route, Routes } from 'react-router';
import type { PreviewConfig } from '@partner-task-kit/workflow/contract';
import { workflowDefaults } from './assignment-defaults.ts';
import { EmulatorTaskView } from './emulator-task-view.tsx';
import { NewAssignmentForm } from './new-assignment-form.tsx';
import { TaskList } from './task-list.tsx';
import { taskPageOrigin } from './task-origin.ts';

/** One company for every task assigned from the preview (a company's tasks share it, as on the platform). */
const PREVIEW_COMPANY = '5e1c7a9d-2b4f-4c6e-8a0d-3f5b7c9e1a2b';

/** Emulator mode: the worker's task list and task view, driven through the emulator's control API. */
export function EmulatorPortal({ config }: { config: PreviewConfig }) {
  const controlPath = config.emulatorControlPath ?? '/emulator/control';
  const { origin, crossOrigin } = taskPageOrigin(window.location);
  const defaults = {
    // The default workflow's, as the URL below names no other; the form follows the workflow chosen there.
    ...(workflowDefaults(config, config.defaultWorkflow) ?? { title: config.defaultWorkflow }),
    iframeUrl: `${origin}/`,
    endEvent: config.endEvent.name,
    appendTaskContext: true,
    hideTaskCompletedButton: false,
    requireReview: false,
    // A served company when the server lists them, so a launch works; another can be typed in to see the refusal.
    companyUuid: config.companies?.[0] ?? PREVIEW_COMPANY,
  };
  return (
    <Routes>
      <Route
        index
        element={
          <div className="pv-page">
            <h1 className="pv-title">Your tasks</h1>
            <p className="pv-intro">
              A stand-in for the platform’s worker portal. Assign the partner task, open it, and watch the task information panel and our
              deliveries as a worker goes through it.
              {!crossOrigin && ' The task page is served from this same origin here: origin mistakes will not show.'}
            </p>
            <div className="pv-home">
              <NewAssignmentForm controlPath={controlPath} defaults={defaults} config={config} />
              <TaskList controlPath={controlPath} />
            </div>
          </div>
        }
      />
      <Route path="tasks/:uuid" element={<EmulatorTaskView controlPath={controlPath} />} />
    </Routes>
  );
}
