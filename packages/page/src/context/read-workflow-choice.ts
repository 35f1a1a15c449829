/**
 * The designer variable that chooses the workflow: docs/platform.md#partner-task-configuration lets the flow designer append variables of their own to
 * the iframe URL, so a flow runs another workflow with `…?workflow=<id>`, before the four wx* parameters.
 *
 * @internal
 */
export const WORKFLOW_PARAM = 'workflow';

/**
 * The workflow the link names, or undefined when it names none (the server then runs its default). A blank value
 * counts as none: a variable left empty in the flow designer is not a request for a workflow called "".
 */
export function readWorkflowChoice(search: string): string | undefined {
  const value = new URLSearchParams(search).get(WORKFLOW_PARAM)?.trim();
  return value === undefined || value === '' ? undefined : value;
}
