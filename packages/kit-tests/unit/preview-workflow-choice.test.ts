import { describe, expect, it } from 'vitest';
import { withIframeUrl, workflowDefaults, type FollowedField } from '@partner-task-kit/dev/preview/assignment-defaults';
import { taskPageUrl } from '@partner-task-kit/dev/preview/task-origin';
import { workflowOfUrl } from '@partner-task-kit/dev/preview/workflow-choice';
import { pageContext } from '@partner-task-kit/testing';

describe('the preview’s workflow choice (the `workflow` variable of the iframe URL)', () => {
  it('reads the variable, and none from a URL that is still being typed', () => {
    expect(workflowOfUrl('http://127.0.0.1:8787/?from=preview&workflow=availability')).toBe('availability');
    expect(workflowOfUrl('http://127.0.0.1:8787/?from=preview')).toBeUndefined();
    expect(workflowOfUrl('not a url')).toBeUndefined();
  });

  it('puts the variable before the appended task context in platform mode', () => {
    const url = new URL(taskPageUrl('http://localhost:8787', pageContext, 'availability'));
    expect([...url.searchParams.keys()]).toEqual(['workflow', 'wxWorkerUuid', 'wxAssignedTaskUuid', 'wxTaskFlowUuid', 'wxCompanyUuid']);
    expect(new URL(taskPageUrl('http://localhost:8787', pageContext)).searchParams.has('workflow')).toBe(false);
  });
});

describe('the launch form’s title and estimate, which follow the chosen workflow', () => {
  const config = {
    defaultWorkflow: 'safety-training',
    workflows: [
      { id: 'safety-training', title: 'Workplace safety training', steps: 4, estimatedMinutes: 10 },
      { id: 'availability', title: 'Availability and preferences', steps: 1, estimatedMinutes: 1 },
    ],
  };
  const options = {
    ...workflowDefaults(config, 'safety-training')!,
    iframeUrl: 'http://127.0.0.1:8787/',
    appendTaskContext: true,
    hideTaskCompletedButton: false,
    requireReview: false,
  };
  const none = new Set<FollowedField>();

  it('start as the default workflow’s: its definition’s title and the estimate the server reports', () => {
    expect(options).toMatchObject({ title: 'Workplace safety training', estimatedCompletionTime: '10 minutes' });
  });

  it('become those of the workflow chosen, and come back with the default', () => {
    const chosen = withIframeUrl(options, 'http://127.0.0.1:8787/?workflow=availability', config, none);
    expect(chosen).toMatchObject({ title: 'Availability and preferences', estimatedCompletionTime: '1 minute' });
    expect(withIframeUrl(chosen, options.iframeUrl, config, none)).toEqual(options);
  });

  it('keep what the developer typed into them', () => {
    const typed = { ...options, title: 'Night shift availability' };
    const chosen = withIframeUrl(typed, 'http://127.0.0.1:8787/?workflow=availability', config, new Set(['title'] as const));
    expect(chosen).toMatchObject({ title: 'Night shift availability', estimatedCompletionTime: '1 minute' });
  });

  it('stay as they are for a workflow the server does not offer, or an edit of the URL that keeps the workflow', () => {
    expect(withIframeUrl(options, 'http://127.0.0.1:8787/?workflow=onboarding-v2', config, none)).toMatchObject({
      title: 'Workplace safety training',
    });
    expect(withIframeUrl(options, 'http://127.0.0.1:8787/?from=preview', config, none).title).toBe('Workplace safety training');
  });
});
