import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AssignedTask } from '@partner-task-kit/dev/emulator/assignments';
import { type AssignmentOptions, type ReceivedUpdate, compareSentAt, sentAtInstant } from '@partner-task-kit/dev/emulator/task-rules';

const context = {
  workerUuid: '11111111-1111-4111-8111-111111111111',
  assignedTaskUuid: '22222222-2222-4222-8222-222222222222',
  taskFlowUuid: '33333333-3333-4333-8333-333333333333',
  companyUuid: '44444444-4444-4444-8444-444444444444',
};
const options: AssignmentOptions = {
  title: 'Quiz',
  iframeUrl: 'https://partner.example.com/task',
  appendTaskContext: true,
  hideTaskCompletedButton: false,
  requireReview: true,
};
const newTask = (overrides: Partial<AssignmentOptions> = {}) => new AssignedTask(context, { ...options, ...overrides }, 'control', 0);
const at = (second: number, taskStatus: ReceivedUpdate['taskStatus'] = 'inProgress'): ReceivedUpdate => ({
  taskStatus,
  sentAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
});

describe('sentAt ordering', () => {
  it('compares instants across time zone offsets', () => {
    expect(compareSentAt(sentAtInstant('2026-01-01T12:00:00+02:00'), sentAtInstant('2026-01-01T10:00:00Z'))).toBe(0);
    expect(compareSentAt(sentAtInstant('2026-01-01T11:59:59+02:00'), sentAtInstant('2026-01-01T10:00:00Z'))).toBeLessThan(0);
  });

  it('keeps digits below the millisecond', () => {
    const a = sentAtInstant('2026-01-01T10:00:00.1234Z');
    const b = sentAtInstant('2026-01-01T10:00:00.1235Z');
    expect(compareSentAt(a, b)).toBeLessThan(0);
    expect(compareSentAt(sentAtInstant('2026-01-01T10:00:00.5Z'), sentAtInstant('2026-01-01T10:00:00.500000Z'))).toBe(0);
  });
});

describe('AssignedTask', () => {
  it('ends with the status of the last received update among those with the newest sentAt, whatever the order', () => {
    const statuses = ['ready', 'inProgress', 'completed', 'error'] as const;
    const updates = fc.array(fc.record({ second: fc.integer({ min: 0, max: 5 }), status: fc.constantFrom(...statuses) }), {
      minLength: 1,
      maxLength: 30,
    });
    fc.assert(
      fc.property(updates, (sequence) => {
        const task = newTask({ requireReview: false });
        sequence.forEach((u, i) => task.applyPartnerUpdate(at(u.second, u.status), i));
        const newest = Math.max(...sequence.map((u) => u.second));
        const expected = sequence.filter((u) => u.second === newest).at(-1)?.status;
        expect(task.status).toBe(expected);
      }),
    );
  });

  it('drops a pending review when the task moves to error, and keeps a decided one', () => {
    const pending = newTask();
    pending.applyPartnerUpdate(at(1, 'completed'), 1);
    pending.applyPartnerUpdate(at(2, 'error'), 2);
    expect(pending.review.state).toBe('none');
    const decided = newTask();
    decided.applyPartnerUpdate(at(1, 'completed'), 1);
    expect(decided.applyAction('approve', 2)).toEqual({ ok: true });
    decided.applyPartnerUpdate(at(2, 'error'), 3);
    expect(decided.review).toMatchObject({ state: 'approved' });
  });

  it('keeps a decided review when a newer completed update arrives without a restart', () => {
    const task = newTask();
    task.applyPartnerUpdate(at(1, 'completed'), 1);
    task.applyAction('reject', 2);
    task.applyPartnerUpdate(at(2, 'completed'), 3);
    expect(task.review.state).toBe('rejected');
  });

  it('refuses start unless the task is ready, and complete once completed', () => {
    const task = newTask();
    expect(task.applyAction('start', 1)).toEqual({ ok: true });
    expect(task.applyAction('start', 2).ok).toBe(false);
    expect(task.applyAction('complete', 3)).toEqual({ ok: true });
    expect(task.applyAction('complete', 4).ok).toBe(false);
  });

  it('does not count an obsolete update as a worker action', () => {
    const task = newTask();
    task.applyPartnerUpdate(at(5), 1);
    task.applyAction('reset', 2);
    expect(task.applyPartnerUpdate(at(4), 3)).toBe('obsolete');
    expect(task.applyAction('reset', 4).ok).toBe(false);
  });

  it('keeps the last 1000 trail entries and counts the dropped ones', () => {
    const task = newTask();
    for (let i = 0; i < 1005; i += 1) task.applyPartnerUpdate(at(i % 60), i);
    expect(task.trail).toHaveLength(1000);
    expect(task.trailDropped).toBe(5);
  });
});

describe('the launch URL', () => {
  it('appends the context with ? when the URL has no query, and keeps the fragment last', () => {
    expect(newTask({ iframeUrl: 'https://p.example/t#s' }).launchUrl).toBe(
      `https://p.example/t?wxWorkerUuid=${context.workerUuid}&wxAssignedTaskUuid=${context.assignedTaskUuid}` +
        `&wxTaskFlowUuid=${context.taskFlowUuid}&wxCompanyUuid=${context.companyUuid}#s`,
    );
  });

  it('leaves the URL untouched without appendTaskContext', () => {
    expect(newTask({ iframeUrl: 'https://p.example/t?a=1', appendTaskContext: false }).launchUrl).toBe('https://p.example/t?a=1');
  });
});
