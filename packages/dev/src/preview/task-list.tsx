import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { Assignment } from './api/assignment-schema.ts';
import { assignmentsQueryOptions, useCreateAssignment } from './api/assignments.ts';
import { reviewText, statusText } from './status-text.ts';
import { useClearedTasks } from './use-cleared-tasks.ts';
import { workflowOfUrl } from './workflow-choice.tsx';
import { Button } from '@partner-task-kit/page/screens';

/**
 * The worker's task list: every assignment the emulator holds, newest first, in a box of bounded height (a day of
 * test runs assigns hundreds), with "Clear list" to hide the ones listed now (use-cleared-tasks.ts).
 */
export function TaskList({ controlPath }: { controlPath: string }) {
  const list = useQuery(assignmentsQueryOptions(controlPath));
  const { cleared, clear, restore } = useClearedTasks();
  const tasks = list.data ?? [];
  const shown = tasks.filter((task) => !cleared.has(task.assignedTaskUuid));
  const hidden = tasks.length - shown.length;
  return (
    <section className="pv-card" aria-labelledby="task-list-title">
      <div className="pv-list-head">
        <h2 id="task-list-title">Assigned tasks</h2>
        {shown.length > 0 && (
          <Button variant="secondary" onClick={() => clear(tasks.map((task) => task.assignedTaskUuid))}>
            Clear list
          </Button>
        )}
      </div>
      {list.isError && <p className="pv-error">Could not read the emulator: {list.error.message}</p>}
      {hidden > 0 && (
        <div className="pv-cleared" data-testid="cleared-tasks">
          <p className="pv-muted pv-small">
            {hidden === 1 ? '1 cleared task is hidden here' : `${hidden} cleared tasks are hidden here`}; the emulator still holds{' '}
            {hidden === 1 ? 'it' : 'them'}.
          </p>
          <Button variant="link" onClick={restore}>
            Show {hidden === 1 ? 'it' : 'them'} again
          </Button>
        </div>
      )}
      {shown.length === 0 ? (
        <p className="pv-muted">
          {list.isPending
            ? 'Loading…'
            : hidden > 0
              ? 'Nothing since the list was cleared: assign one with the form.'
              : 'None yet: assign one with the form.'}
        </p>
      ) : (
        <ul className="pv-tasks pv-tasks-bounded" aria-label={`${shown.length} ${shown.length === 1 ? 'task' : 'tasks'}, newest first`}>
          {shown.map((task) => (
            <TaskRow key={task.assignedTaskUuid} controlPath={controlPath} task={task} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TaskRow({ controlPath, task }: { controlPath: string; task: Assignment }) {
  const create = useCreateAssignment(controlPath);
  const navigate = useNavigate();
  const { options } = task;
  const workflow = workflowOfUrl(options.iframeUrl);
  const flags = [
    workflow !== undefined && `workflow ${workflow}`,
    options.requireReview && 'review required',
    options.hideTaskCompletedButton && '“Task Completed” hidden',
    !options.appendTaskContext && 'no task context',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <li className="pv-task-row">
      <Link to={`/preview/tasks/${task.assignedTaskUuid}`} className="pv-task-link">
        {options.title}
      </Link>
      <span className="pv-small">
        <span className={`pv-status pv-status-${task.status}`}>{statusText(task.status)}</span>
        {task.review.required && ` · ${reviewText(task.review)}`}
        {options.estimatedCompletionTime && ` · ${options.estimatedCompletionTime}`}
      </span>
      <span className="pv-muted pv-small">
        <code className="pv-code">{task.assignedTaskUuid}</code>
        {flags && ` · ${flags}`}
      </span>
      <Button
        variant="link"
        busy={create.isPending}
        busyText="Assigning…"
        aria-label={`Assign again with the same options: ${options.title}`}
        onClick={() => create.mutate(options, { onSuccess: (created) => void navigate(`/preview/tasks/${created.assignedTaskUuid}`) })}
      >
        Assign again with the same options
      </Button>
    </li>
  );
}
