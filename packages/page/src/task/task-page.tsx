import { ApiClientProvider } from '../api/api-client-context.tsx';
import { ContextErrorScreen } from '../context/context-error-screen.tsx';
import { readTaskContext } from '../context/read-task-context.ts';
import { readWorkflowChoice } from '../context/read-workflow-choice.ts';
import { TaskSession } from './task-session.tsx';

/**
 * The task page: the context first (no API call without a valid one), then the session. The page never navigates, so
 * its URL is the one it was opened with.
 */
export function TaskPage() {
  const { search } = window.location;
  const reading = readTaskContext(search);
  if (!reading.ok) return <ContextErrorScreen problems={reading.problems} />;
  return (
    <ApiClientProvider key={reading.context.wxAssignedTaskUuid} context={reading.context} workflow={readWorkflowChoice(search)}>
      <TaskSession />
    </ApiClientProvider>
  );
}
