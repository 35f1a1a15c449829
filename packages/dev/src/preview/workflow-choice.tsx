import { WORKFLOW_PARAM } from '@partner-task-kit/page/internal';
import type { PreviewConfig } from '@partner-task-kit/workflow/contract';

/** The `workflow` variable of an iframe URL, or undefined when it has none (or is not a URL yet, while being typed). */
export function workflowOfUrl(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get(WORKFLOW_PARAM) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The iframe URL with its `workflow` variable set to `workflow`, or removed when undefined (docs/platform.md#partner-task-configuration: variables). */
function withWorkflow(url: string, workflow: string | undefined): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (workflow === undefined) parsed.searchParams.delete(WORKFLOW_PARAM);
  else parsed.searchParams.set(WORKFLOW_PARAM, workflow);
  return parsed.toString();
}

/**
 * The workflow a launch runs, chosen among those the server offers (GET /api/preview). The choice is the `workflow`
 * variable of the iframe URL, as a flow designer would append it, so the URL shown is the URL launched; the default
 * workflow is the URL without the variable. A variable naming a workflow the server does not offer (typed into the
 * URL, to see the task page's error screen) is shown as such.
 */
export function WorkflowSelect({
  id,
  config,
  url,
  onUrlChange,
}: {
  id: string;
  config: Pick<PreviewConfig, 'workflows' | 'defaultWorkflow'>;
  url: string;
  onUrlChange: (url: string) => void;
}) {
  const selected = workflowOfUrl(url) ?? config.defaultWorkflow;
  const chosen = config.workflows.find((workflow) => workflow.id === selected);
  return (
    <div className="pv-field">
      <label htmlFor={id}>Workflow</label>
      <p className="pv-muted pv-small" id={`${id}-hint`}>
        Adds <code className="pv-code">{WORKFLOW_PARAM}=…</code> to the iframe URL (spec 2.4: variables the flow designer appends); without
        it a new task runs {config.defaultWorkflow}. A task keeps the workflow it was first opened with.
      </p>
      {/* Options name the workflow only: a select is one line as wide as the form, and the id is what the URL carries.
          The chosen workflow's size is said below it, where a long id cannot push it out of view. */}
      <select
        id={id}
        value={selected}
        aria-describedby={`${id}-hint ${id}-chosen`}
        onChange={(event) => onUrlChange(withWorkflow(url, event.target.value === config.defaultWorkflow ? undefined : event.target.value))}
      >
        {config.workflows.map((workflow) => (
          <option key={workflow.id} value={workflow.id}>
            {workflow.id}
            {workflow.id === config.defaultWorkflow ? ' (default)' : ''}
          </option>
        ))}
        {!chosen && <option value={selected}>{selected} (not offered by this server)</option>}
      </select>
      <p className="pv-muted pv-small" id={`${id}-chosen`}>
        {chosen
          ? `${chosen.steps} ${chosen.steps === 1 ? 'step' : 'steps'}, about ${chosen.estimatedMinutes} min.`
          : 'The task page will say that this link names a workflow it does not offer.'}
      </p>
    </div>
  );
}
