import { describe, expect, it } from 'vitest';
import { taskPageUrl } from '../../src/preview/task-origin';
import { withWorkflow, workflowOfUrl } from '../../src/preview/workflow-choice';
import { pageContext } from '../helpers/page-fixtures';

describe('the preview’s workflow choice (the `workflow` variable of the iframe URL)', () => {
  it('sets, replaces and removes the variable, keeping the rest of the URL', () => {
    const chosen = withWorkflow('http://127.0.0.1:8787/?from=preview', 'availability');
    expect(chosen).toBe('http://127.0.0.1:8787/?from=preview&workflow=availability');
    expect(workflowOfUrl(chosen)).toBe('availability');
    expect(withWorkflow(chosen, 'safety-training')).toBe('http://127.0.0.1:8787/?from=preview&workflow=safety-training');
    expect(withWorkflow(chosen, undefined)).toBe('http://127.0.0.1:8787/?from=preview');
  });

  it('leaves a URL that is still being typed alone', () => {
    expect(withWorkflow('http://', 'availability')).toBe('http://');
    expect(workflowOfUrl('not a url')).toBeUndefined();
  });

  it('puts the variable before the appended task context in platform mode', () => {
    const url = new URL(taskPageUrl('http://localhost:8787', pageContext, 'availability'));
    expect([...url.searchParams.keys()]).toEqual(['workflow', 'wxWorkerUuid', 'wxAssignedTaskUuid', 'wxTaskFlowUuid', 'wxCompanyUuid']);
    expect(new URL(taskPageUrl('http://localhost:8787', pageContext)).searchParams.has('workflow')).toBe(false);
  });
});
