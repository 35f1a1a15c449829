import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import type { PreviewConfig } from '@partner-task-kit/workflow/contract';
import { contextParamNames, type TaskContext } from '@partner-task-kit/workflow/contract';
import { Button } from '@partner-task-kit/page/screens';
import { DeliveryView } from './delivery-view.tsx';
import { EventLog } from './event-log.tsx';
import { TaskFrame, type FrameState } from './task-frame.tsx';
import { taskPageOrigin, taskPageUrl } from './task-origin.ts';
import { usePortalMessages } from './use-portal-messages.ts';
import { WorkflowSelect, workflowOfUrl } from './workflow-choice.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function generatedContext(): TaskContext {
  return {
    wxWorkerUuid: crypto.randomUUID(),
    wxAssignedTaskUuid: crypto.randomUUID(),
    wxTaskFlowUuid: crypto.randomUUID(),
    wxCompanyUuid: crypto.randomUUID(),
  };
}

/**
 * Platform mode (a real credential, PREVIEW_ENABLED=true): no emulator, so no assignment, review or panel to show.
 * It still opens the task page with chosen or generated context and shows our own delivery view.
 */
export function PlatformPortal({ config }: { config: PreviewConfig }) {
  const [draft, setDraft] = useState(generatedContext);
  const [opened, setOpened] = useState<{ context: TaskContext; workflow: string | undefined; key: number } | undefined>();
  const [frameState, setFrameState] = useState<FrameState>({ open: true });
  const frameRef = useRef<HTMLIFrameElement>(null);
  const id = useId();
  const { origin } = taskPageOrigin(window.location);
  // The launch URL before the context is appended: the page, with the workflow variable chosen below, if any.
  const [launchBase, setLaunchBase] = useState(`${origin}/`);
  const onEndEvent = useCallback(() => setFrameState({ open: false, reason: 'end event' }), []);
  const messages = usePortalMessages({ frame: frameRef, expectedOrigin: origin, endEvent: config.endEvent.name, onEndEvent });
  const valid = contextParamNames.every((name) => UUID.test(draft[name]));

  function open(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    setOpened((previous) => ({ context: { ...draft }, workflow: workflowOfUrl(launchBase), key: (previous?.key ?? 0) + 1 }));
    setFrameState({ open: true });
  }

  return (
    <div className="pv-task-layout">
      <div className="pv-task-main">
        <h1 className="pv-title">Task page preview</h1>
        <div className="pv-card pv-warning" role="note">
          <p>
            <strong>Platform mode:</strong> a real credential is configured, so updates go to the real platform. The platform’s own task
            information panel, its audit trail and the admin’s review are not visible from here: look at the task in the platform’s back
            office.
          </p>
          <p>Use the UUIDs of a real assignment, or the platform will refuse the updates and they end as dead letters below.</p>
        </div>
        <form className="pv-card" onSubmit={open} aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`}>Task context (spec 2.5)</h2>
          {contextParamNames.map((name) => (
            <div className="pv-field" key={name}>
              <label htmlFor={`${id}-${name}`}>{name}</label>
              <input
                id={`${id}-${name}`}
                type="text"
                spellCheck={false}
                value={draft[name]}
                onChange={(event) => setDraft({ ...draft, [name]: event.target.value.trim() })}
              />
            </div>
          ))}
          <WorkflowSelect id={`${id}-workflow`} config={config} url={launchBase} onUrlChange={setLaunchBase} />
          {!valid && <p className="pv-error">Each value must be a UUID.</p>}
          <div className="pv-actions">
            <Button type="submit">Open the task</Button>
            <Button variant="secondary" onClick={() => setDraft(generatedContext())}>
              Generate new values
            </Button>
          </div>
        </form>
        {opened && (
          <TaskFrame
            title="Partner task"
            src={taskPageUrl(origin, opened.context, opened.workflow)}
            frameRef={frameRef}
            frameKey={opened.key}
            state={frameState}
            closedScreen={
              <Button variant="secondary" onClick={() => setFrameState({ open: true })}>
                Open this task again
              </Button>
            }
          />
        )}
      </div>
      <div className="pv-task-side">
        {opened && <DeliveryView key={opened.context.wxAssignedTaskUuid} context={opened.context} workflow={opened.workflow} />}
        <EventLog messages={messages} />
      </div>
    </div>
  );
}
