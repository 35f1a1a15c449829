import { describe, expect, it } from 'vitest';
import { readTaskContext } from '@partner-task-kit/page/context/read-task-context';
import { readWorkflowChoice } from '@partner-task-kit/page/context/read-workflow-choice';

const valid = {
  wxWorkerUuid: '11111111-1111-4111-8111-111111111111',
  wxAssignedTaskUuid: '22222222-2222-4222-8222-222222222222',
  wxTaskFlowUuid: '33333333-3333-4333-8333-333333333333',
  wxCompanyUuid: '44444444-4444-4444-8444-444444444444',
};

describe('reading the task context (spec 2.5)', () => {
  it("reads the four parameters among the flow designer's own variables", () => {
    const reading = readTaskContext(`?lang=es&${new URLSearchParams(valid)}`);
    expect(reading).toEqual({ ok: true, context: valid });
  });

  it('keeps each value exactly as the portal sent it, letter case included', () => {
    const upper = valid.wxAssignedTaskUuid.toUpperCase();
    const reading = readTaskContext(`?${new URLSearchParams({ ...valid, wxAssignedTaskUuid: upper })}`);
    expect(reading.ok && reading.context.wxAssignedTaskUuid).toBe(upper);
  });

  it('names every bad parameter, not just the first', () => {
    const reading = readTaskContext(
      `?wxWorkerUuid=abc&wxTaskFlowUuid=${valid.wxTaskFlowUuid}&wxTaskFlowUuid=${valid.wxTaskFlowUuid}&wxCompanyUuid=`,
    );
    expect(reading).toEqual({
      ok: false,
      problems: [
        { param: 'wxWorkerUuid', kind: 'invalid', received: 'abc' },
        { param: 'wxAssignedTaskUuid', kind: 'missing' },
        { param: 'wxTaskFlowUuid', kind: 'repeated' },
        { param: 'wxCompanyUuid', kind: 'missing' },
      ],
    });
  });

  it('shortens a long bad value in the report', () => {
    const reading = readTaskContext(`?${new URLSearchParams({ ...valid, wxWorkerUuid: 'x'.repeat(500) })}`);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.problems[0]?.received).toHaveLength(41);
  });
});

describe('reading the workflow the link names (a designer variable, spec 2.4)', () => {
  it('reads workflow=<id> among the context parameters', () => {
    expect(readWorkflowChoice(`?workflow=availability&${new URLSearchParams(valid)}`)).toBe('availability');
  });

  it('reads no workflow when the link names none, or leaves it blank', () => {
    expect(readWorkflowChoice(`?${new URLSearchParams(valid)}`)).toBeUndefined();
    expect(readWorkflowChoice('?workflow=&x=1')).toBeUndefined();
    expect(readWorkflowChoice('?workflow=%20%20')).toBeUndefined();
  });

  it('passes any other value on as it is, for the server to accept or refuse', () => {
    expect(readWorkflowChoice('?workflow=no-such-thing')).toBe('no-such-thing');
  });
});
