import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { PreviewConfig } from '@partner-task-kit/workflow/contract';
import type { AssignmentOptions } from './api/assignment-schema.ts';
import { useCreateAssignment } from './api/assignments.ts';
import { withIframeUrl, type FollowedField } from './assignment-defaults.ts';
import { Button } from '@partner-task-kit/page/screens';
import { Notice } from '@partner-task-kit/page/screens';
import { WorkflowSelect } from './workflow-choice.tsx';

type TextKey = 'title' | 'estimatedCompletionTime' | 'endEvent' | 'iframeUrl' | 'companyUuid';

/** docs/platform.md#partner-task-configuration: the partner task configuration set when a flow is created; each submit assigns it with fresh UUIDs. */
export function NewAssignmentForm({
  controlPath,
  defaults,
  config,
}: {
  controlPath: string;
  defaults: AssignmentOptions;
  config: Pick<PreviewConfig, 'workflows' | 'defaultWorkflow' | 'companies'>;
}) {
  const [options, setOptions] = useState(defaults);
  // The title and estimate follow the chosen workflow until the developer types their own.
  const [edited, setEdited] = useState<ReadonlySet<FollowedField>>(new Set());
  const create = useCreateAssignment(controlPath);
  const navigate = useNavigate();
  const id = useId();
  const set = <K extends keyof AssignmentOptions>(key: K, value: AssignmentOptions[K]) =>
    setOptions((previous) => ({ ...previous, [key]: value }));
  const setIframeUrl = (url: string) => setOptions((previous) => withIframeUrl(previous, url, config, edited));
  const typeInto = (key: TextKey, value: string) => {
    if (key === 'iframeUrl') return setIframeUrl(value);
    if (key === 'title' || key === 'estimatedCompletionTime') setEdited((previous) => new Set([...previous, key]));
    set(key, value);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const body: AssignmentOptions = {
      ...options,
      estimatedCompletionTime: options.estimatedCompletionTime?.trim() || undefined,
      endEvent: options.endEvent?.trim() || undefined,
      companyUuid: options.companyUuid?.trim() || undefined,
    };
    create.mutate(body, { onSuccess: (created) => void navigate(`/preview/tasks/${created.assignedTaskUuid}`) });
  }

  const text = (key: TextKey, label: string, hint?: string) => (
    <div className="pv-field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      {hint && (
        <p className="pv-muted pv-small" id={`${id}-${key}-hint`}>
          {hint}
        </p>
      )}
      <input
        id={`${id}-${key}`}
        type={key === 'iframeUrl' ? 'url' : 'text'}
        required={key === 'title' || key === 'iframeUrl'}
        value={options[key] ?? ''}
        aria-describedby={hint ? `${id}-${key}-hint` : undefined}
        onChange={(event) => typeInto(key, event.target.value)}
      />
    </div>
  );
  const check = (key: 'appendTaskContext' | 'hideTaskCompletedButton' | 'requireReview', label: string) => (
    <div className="check">
      <input id={`${id}-${key}`} type="checkbox" checked={options[key]} onChange={(event) => set(key, event.target.checked)} />
      <label htmlFor={`${id}-${key}`}>{label}</label>
    </div>
  );

  return (
    <form className="pv-card" aria-labelledby={`${id}-heading`} onSubmit={submit}>
      <h2 id={`${id}-heading`}>Assign a partner task</h2>
      {text('title', 'Title')}
      {text('estimatedCompletionTime', 'Estimated completion time')}
      {text('endEvent', 'End event name', 'The portal closes the iframe when the task page posts this event (END_EVENT on the server).')}
      <WorkflowSelect id={`${id}-workflow`} config={config} url={options.iframeUrl} onUrlChange={setIframeUrl} />
      {text('iframeUrl', 'Iframe URL', 'The task page, from another origin than this portal.')}
      {text(
        'companyUuid',
        'Company (wxCompanyUuid)',
        config.companies
          ? `The server acts only for ${config.companies.join(', ')} (WX_COMPANY_UUIDS); any other is refused as not set up.`
          : 'The server acts for any company (WX_COMPANY_UUIDS is unset). Empty: a new company for this task.',
      )}
      <fieldset className="pv-fieldset">
        <legend>Options</legend>
        {check('appendTaskContext', 'Append task context (the four wx parameters)')}
        {check('hideTaskCompletedButton', 'Hide the “Task Completed” button')}
        {check('requireReview', 'Require review by an admin')}
      </fieldset>
      <Button type="submit" busy={create.isPending} busyText="Assigning…">
        Assign and open
      </Button>
      <Notice tone="error">{create.isError ? create.error.message : undefined}</Notice>
    </form>
  );
}
