import { useCallback, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { Assignment } from './api/assignment-schema.ts';
import { assignmentQueryOptions, assignmentsQueryOptions, useAssignmentAction } from './api/assignments.ts';
import { DeliveryView } from './delivery-view.tsx';
import { EventLog } from './event-log.tsx';
import { FaultControls } from './fault-controls.tsx';
import { PartnerBackendPanel } from './partner-backend-panel.tsx';
import { ScreenHeading } from './screen-heading.tsx';
import { TaskFrame, type FrameState } from './task-frame.tsx';
import { TaskInfoPanel } from './task-info-panel.tsx';
import { usePortalMessages } from './use-portal-messages.ts';
import { workflowOfUrl } from './workflow-choice.tsx';
import { Button } from '@partner-task-kit/page/screens';
import { Notice } from '@partner-task-kit/page/screens';

/** One assignment as the worker portal's task view shows it, with the back office and our delivery view beside it. */
export function EmulatorTaskView({ controlPath }: { controlPath: string }) {
  const { uuid = '' } = useParams();
  const assignment = useQuery(assignmentQueryOptions(controlPath, uuid));
  if (assignment.isError) {
    return (
      <div className="pv-page">
        <h1>Task not found</h1>
        <p>{assignment.error.message}. The emulator keeps assignments in memory: a restart of the server forgets them.</p>
        <Link to="/preview">Back to your tasks</Link>
      </div>
    );
  }
  if (!assignment.data)
    return (
      <p role="status" className="pv-page">
        Loading the task…
      </p>
    );
  return <TaskViewLoaded key={uuid} controlPath={controlPath} assignment={assignment.data} />;
}

function TaskViewLoaded({ controlPath, assignment }: { controlPath: string; assignment: Assignment }) {
  const [frameState, setFrameState] = useState<FrameState>({ open: true });
  const [frameKey, setFrameKey] = useState(0);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const complete = useAssignmentAction(controlPath, assignment.assignedTaskUuid);
  const onEndEvent = useCallback(() => setFrameState({ open: false, reason: 'end event' }), []);
  const messages = usePortalMessages({
    frame: frameRef,
    expectedOrigin: originOf(assignment.launchUrl),
    endEvent: assignment.options.endEvent,
    onEndEvent,
  });
  const reopen = () => {
    setFrameKey((key) => key + 1);
    setFrameState({ open: true });
  };
  const { options } = assignment;
  const context = {
    wxWorkerUuid: assignment.workerUuid,
    wxAssignedTaskUuid: assignment.assignedTaskUuid,
    wxTaskFlowUuid: assignment.taskFlowUuid,
    wxCompanyUuid: assignment.companyUuid,
  };
  const canComplete = !options.hideTaskCompletedButton && assignment.status !== 'completed' && assignment.status !== 'error';

  return (
    <div className="pv-task-layout">
      <div className="pv-task-main">
        <p className="pv-back">
          <Link to="/preview">← All tasks</Link>
        </p>
        <ScreenHeading>{options.title}</ScreenHeading>
        {options.estimatedCompletionTime !== undefined && <p className="pv-muted">Estimated time: {options.estimatedCompletionTime}</p>}
        <TaskFrame
          title={options.title}
          src={assignment.launchUrl}
          frameRef={frameRef}
          frameKey={frameKey}
          state={frameState}
          closedScreen={<NextTask controlPath={controlPath} current={assignment.assignedTaskUuid} onReopen={reopen} />}
        >
          {canComplete && (
            <div className="pv-portal-bar">
              <Button
                onClick={() =>
                  complete.mutate('complete', { onSuccess: () => setFrameState({ open: false, reason: 'task completed button' }) })
                }
              >
                Task Completed
              </Button>
              <Notice tone="error">{complete.isError ? complete.error.message : undefined}</Notice>
            </div>
          )}
        </TaskFrame>
      </div>
      <div className="pv-task-side">
        <TaskInfoPanel controlPath={controlPath} assignment={assignment} onReset={reopen} />
        <DeliveryView key={assignment.assignedTaskUuid} context={context} workflow={workflowOfUrl(assignment.launchUrl)}>
          <FaultControls controlPath={controlPath} assignedTaskUuid={assignment.assignedTaskUuid} />
        </DeliveryView>
        <PartnerBackendPanel controlPath={controlPath} assignedTaskUuid={assignment.assignedTaskUuid} />
        <EventLog messages={messages} />
      </div>
    </div>
  );
}

/** The portal moves on: the next open task in the list, or back to the list; this one can be opened again. */
function NextTask({ controlPath, current, onReopen }: { controlPath: string; current: string; onReopen: () => void }) {
  const list = useQuery(assignmentsQueryOptions(controlPath));
  const next = list.data?.find((task) => task.assignedTaskUuid !== current && task.status !== 'completed');
  return (
    <div className="pv-actions">
      {next ? (
        <Link to={`/preview/tasks/${next.assignedTaskUuid}`}>Next task: {next.options.title}</Link>
      ) : (
        <Link to="/preview">No other open task: back to your tasks</Link>
      )}
      <Button variant="secondary" onClick={onReopen}>
        Open this task again
      </Button>
    </div>
  );
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}
