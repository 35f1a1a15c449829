import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../api/api-client-context';
import { ApiError } from '../api/api-error';
import { taskQueryOptions } from '../api/get-task';
import { sessionQueryOptions } from '../api/open-session';
import { isEmbedded, parentOrigin } from '../context/embedding';
import type { EndEvent } from '../contract/step-submission';
import { postEndEvent } from '../portal/end-event';
import { Button } from '../ui/button';
import { FocusHeading } from '../ui/focus-heading';
import { useShellTexts } from '../ui/i18n/locale-context';
import { Notice } from '../ui/notice';
import { PageShell } from '../ui/page-shell';
import { DoneScreen } from './done-screen';
import { errorKind } from './error-text';
import { FailedScreen } from './failed-screen';
import { preloadWorkflowViews } from '../workflows/registry.views';
import { StepRunner } from './step-runner';
import { UnknownWorkflowScreen } from './unknown-workflow-screen';

/** Opens the session, then shows the screen the task's state calls for. */
export function TaskSession() {
  const texts = useShellTexts();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQueryOptions(client, queryClient));
  const task = useQuery({ ...taskQueryOptions(client), enabled: session.isSuccess });
  // Set when this page saw the task end; undefined after a reload (the end event is not fired twice).
  const [ended, setEnded] = useState<{ status: 'completed' | 'error'; portalNotified: number } | undefined>();
  const [embedded] = useState(() => isEmbedded());
  useEffect(() => preloadWorkflowViews(client.workflow), [client]);

  const notes = [...(embedded ? [] : [texts.standalone]), ...(session.data?.environment.emulator ? [texts.emulator] : [])];

  if (session.isError && !task.data && session.error instanceof ApiError && session.error.code === 'unknown_workflow') {
    return <UnknownWorkflowScreen workflow={client.workflow ?? ''} notes={notes} />;
  }
  const failure = session.isError ? session.error : task.isError ? task.error : undefined;
  const kind = failure === undefined ? undefined : errorKind(failure);
  if (failure !== undefined && !task.data && (kind === 'unknown_company' || kind === 'task_rejected' || kind === 'context_mismatch')) {
    // Trying again cannot help: say why and whom to tell, with no retry button (like a broken link).
    return (
      <PageShell notes={notes}>
        <FocusHeading focusOnMount={false}>{texts.notAvailable.title}</FocusHeading>
        <Notice tone="error">{texts.errors[kind]}</Notice>
      </PageShell>
    );
  }
  if (session.isError && !task.data) {
    return (
      <PageShell notes={notes}>
        <FocusHeading focusOnMount={false}>{texts.loadError.title}</FocusHeading>
        <Notice tone="error">{texts.errors[errorKind(session.error)]}</Notice>
        <Button onClick={() => void session.refetch()} busy={session.isFetching} busyText={texts.opening}>
          {texts.loadError.retry}
        </Button>
      </PageShell>
    );
  }
  if (!task.data) {
    return (
      <PageShell notes={notes}>
        <p role="status" className="opening">
          {texts.opening}
        </p>
      </PageShell>
    );
  }

  function handleEnded(status: 'completed' | 'error', event: EndEvent | undefined) {
    // Fired only now, once the server answered that the completion is stored: the portal closes the iframe on it.
    const posted = event ? postEndEvent(event, client.context, embedded ? window.parent : null, embedded ? parentOrigin() : undefined) : 0;
    setEnded({ status, portalNotified: posted });
  }

  const view = task.data;
  return (
    <PageShell notes={notes}>
      {view.status === 'completed' ? (
        <DoneScreen task={view} portalNotified={ended?.portalNotified} justFinished={ended?.status === 'completed'} />
      ) : view.status === 'error' ? (
        <FailedScreen task={view} justFailed={ended?.status === 'error'} />
      ) : (
        <StepRunner task={view} onEnded={handleEnded} />
      )}
    </PageShell>
  );
}
