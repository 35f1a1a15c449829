import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../api/api-client-context.tsx';
import { ApiError } from '../api/api-error.ts';
import { taskQueryOptions } from '../api/get-task.ts';
import { sessionQueryOptions } from '../api/open-session.ts';
import { isEmbedded, parentOrigin } from '../context/embedding.ts';
import { awaitsPartner, type EndEvent, isClosed } from '@partner-task-kit/workflow/contract';
import { postEndEvent } from '../portal/end-event.ts';
import { Button } from '../ui/button.tsx';
import { FocusHeading } from '../ui/focus-heading.tsx';
import { useShellTexts } from '../ui/i18n/locale-context.tsx';
import { Notice } from '../ui/notice.tsx';
import { PageShell } from '../ui/page-shell.tsx';
import { preloadWorkflowViews } from '../workflows/workflow-views.tsx';
import { errorKind } from './error-text.ts';
import { unopenedTaskView, useFirstScreen } from './first-screen.tsx';
import { OpeningScreen } from './opening-screen.tsx';
import { taskScreen } from './task-screen.tsx';
import { UnknownWorkflowScreen } from './unknown-workflow-screen.tsx';

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
  // The prerendered first step this page was hydrated from (first-screen.tsx), shown until the session answers: for a
  // new task it is the very screen the session's view renders, so nothing moves when it arrives. Only for the workflow
  // the link names (the server picked the prerender by the same link).
  const firstScreen = useFirstScreen();
  const [unopened] = useState(() =>
    firstScreen && (client.workflow === undefined || client.workflow === firstScreen.workflow.id)
      ? unopenedTaskView(firstScreen.workflow)
      : undefined,
  );
  // A prerendered page names the workflow the server assumed (and already preloads its screens): fetch no other.
  const likelyWorkflow = client.workflow ?? firstScreen?.workflow.id;
  useEffect(() => void preloadWorkflowViews(likelyWorkflow), [likelyWorkflow]);

  function handleEnded(status: 'completed' | 'error', event: EndEvent | undefined) {
    // Fired only now, once the server answered that the completion is stored: the portal closes the iframe on it.
    const posted = event ? postEndEvent(event, client.context, embedded ? window.parent : null, embedded ? parentOrigin() : undefined) : 0;
    setEnded({ status, portalNotified: posted });
  }

  // A step the partner's backend completes (docs/connecting-your-backend.md#partner-api) ends the task while this page polls: seen waiting,
  // then closed, it is this page's ending as much as a step the worker saved. A page opened on a closed task fires nothing.
  const sawPartnerWait = useRef(false);
  const view = task.data;
  useEffect(() => {
    if (!view) return;
    if (awaitsPartner({ status: view.status, currentStep: view.currentStep, steps: view.workflow.steps })) {
      sawPartnerWait.current = true;
    } else if (sawPartnerWait.current && isClosed(view.status)) {
      sawPartnerWait.current = false;
      handleEnded(view.status, view.endEvent);
    }
  });

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
  if (!task.data && unopened) {
    // A step submitted before the session has answered waits for it (api-client.ts: one session request in flight).
    return taskScreen({ view: unopened, notes: [], ended: undefined, onEnded: handleEnded });
  }
  // The very screen a returning worker's HTML holds (opening-screen.tsx), which this render hydrates: never a step.
  if (!task.data) return <OpeningScreen />;

  return taskScreen({ view: task.data, notes, ended, onEnded: handleEnded });
}
