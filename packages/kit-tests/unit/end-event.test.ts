import { describe, expect, it } from 'vitest';
import { postEndEvent } from '@partner-task-kit/page/portal/end-event';

const context = {
  wxWorkerUuid: '11111111-1111-4111-8111-111111111111',
  wxAssignedTaskUuid: '22222222-2222-4222-8222-222222222222',
  wxTaskFlowUuid: '33333333-3333-4333-8333-333333333333',
  wxCompanyUuid: '44444444-4444-4444-8444-444444444444',
};

function recorder() {
  const posted: { message: unknown; origin: string }[] = [];
  return { posted, target: { postMessage: (message: unknown, origin: string) => posted.push({ message, origin }) } };
}

describe('the end event (spec 2.4, 6.1)', () => {
  it('posts the bare name in the string format', () => {
    const { posted, target } = recorder();
    postEndEvent({ name: 'done', format: 'string', targetOrigins: ['https://a.example'] }, context, target);
    expect(posted).toEqual([{ message: 'done', origin: 'https://a.example' }]);
  });

  it('posts {type, taskStatus, context} in the object format', () => {
    const { posted, target } = recorder();
    postEndEvent({ name: 'done', format: 'object', targetOrigins: ['https://a.example'] }, context, target);
    expect(posted.map((p) => p.message)).toEqual([{ type: 'done', taskStatus: 'completed', ...context }]);
  });

  it('posts once per configured origin, each exactly, never "*"', () => {
    const { posted, target } = recorder();
    const count = postEndEvent(
      { name: 'done', format: 'string', targetOrigins: ['https://a.example', '*', 'https://b.example:8443', 'https://c.example/path'] },
      context,
      target,
    );
    expect(count).toBe(2);
    expect(posted.map((p) => p.origin)).toEqual(['https://a.example', 'https://b.example:8443']);
  });

  it('addresses only the parent origin when the browser tells it, so no post is refused', () => {
    const { posted, target } = recorder();
    const event = { name: 'done', format: 'string', targetOrigins: ['http://portal.test', 'http://localhost:8787'] } as const;
    expect(postEndEvent({ ...event, targetOrigins: [...event.targetOrigins] }, context, target, 'http://localhost:8787')).toBe(1);
    expect(posted.map((p) => p.origin)).toEqual(['http://localhost:8787']);
    expect(postEndEvent({ ...event, targetOrigins: [...event.targetOrigins] }, context, target, 'https://elsewhere.example')).toBe(0);
  });

  it('posts nothing when standalone', () => {
    expect(postEndEvent({ name: 'done', format: 'string', targetOrigins: ['https://a.example'] }, context, null)).toBe(0);
  });

  it.each([
    ['https://portal.example.com', true],
    ['http://127.0.0.1:8787', true],
    ['*', false],
    ['/', false],
    ['https://portal.example.com/', false],
    ['javascript:alert(1)', false],
  ])('addresses %j as a target origin: %s', (value, expected) => {
    const { target } = recorder();
    expect(postEndEvent({ name: 'done', format: 'string', targetOrigins: [value] }, context, target)).toBe(expected ? 1 : 0);
  });
});
