import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { Assignment } from './api/assignment-schema';
import { assignmentsQueryOptions, useCreateAssignment } from './api/assignments';
import { reviewText, statusText } from './status-text';
import { workflowOfUrl } from './workflow-choice';
import { Button } from '../ui/button';

/** The worker's task list: every assignment the emulator holds, newest first. */
export function TaskList({ controlPath }: { controlPath: string }) {
  const list = useQuery(assignmentsQueryOptions(controlPath));
  const tasks = list.data ?? [];
  return (
    <section className="pv-card" aria-labelledby="task-list-title">
      <h2 id="task-list-title">Assigned tasks</h2>
      {list.isError && <p className="pv-error">Could not read the emulator: {list.error.message}</p>}
      {tasks.length === 0 ? (
        <p className="pv-muted">{list.isPending ? 'Loading…' : 'None yet: assign one with the form.'}</p>
      ) : (
        <ul className="pv-tasks">
          {tasks.map((task) => (
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
