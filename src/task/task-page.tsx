import { ApiClientProvider } from '../api/api-client-context';
import { ContextErrorScreen } from '../context/context-error-screen';
import { readTaskContext } from '../context/read-task-context';
import { readWorkflowChoice } from '../context/read-workflow-choice';
import { TaskSession } from './task-session';

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
