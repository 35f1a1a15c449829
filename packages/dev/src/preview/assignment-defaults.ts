import type { PreviewConfig } from '@partner-task-kit/workflow/contract';
import type { AssignmentOptions } from './api/assignment-schema.ts';
import { workflowOfUrl } from './workflow-choice.tsx';

type Offered = Pick<PreviewConfig, 'workflows' | 'defaultWorkflow'>;
type FollowedFields = Pick<AssignmentOptions, 'title' | 'estimatedCompletionTime'>;

/** The fields of the launch form that follow the chosen workflow until the developer types into them. */
export type FollowedField = keyof FollowedFields;

/**
 * The title and estimate an admin would give an assignment of `workflowId` (docs/platform.md#partner-task-configuration): the definition's title and the
 * estimate, as the server reports them; undefined for a workflow this server does not offer, which has neither.
 */
export function workflowDefaults(config: Offered, workflowId: string): Required<FollowedFields> | undefined {
  const offered = config.workflows.find((workflow) => workflow.id === workflowId);
  if (!offered) return undefined;
  const minutes = offered.estimatedMinutes;
  return {
    title: offered.title,
    estimatedCompletionTime: `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
  };
}

/**
 * The options with another iframe URL. When the URL names another workflow (the select, or a `workflow=` typed into
 * the URL), the title and estimate become that workflow's, except those the developer typed: a launch of one workflow
 * under another's title would misname the task in every panel that shows it.
 */
export function withIframeUrl(
  options: AssignmentOptions,
  url: string,
  config: Offered,
  edited: ReadonlySet<FollowedField>,
): AssignmentOptions {
  const before = workflowOfUrl(options.iframeUrl) ?? config.defaultWorkflow;
  const after = workflowOfUrl(url) ?? config.defaultWorkflow;
  const defaults = after === before ? undefined : workflowDefaults(config, after);
  const next = { ...options, iframeUrl: url };
  if (defaults && !edited.has('title')) next.title = defaults.title;
  if (defaults && !edited.has('estimatedCompletionTime')) next.estimatedCompletionTime = defaults.estimatedCompletionTime;
  return next;
}
