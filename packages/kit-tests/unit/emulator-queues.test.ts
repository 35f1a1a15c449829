import { describe, expect, it } from 'vitest';
import { FaultQueue } from '@partner-task-kit/dev/emulator/fault-queue';
import { RequestLog, type LoggedRequest } from '@partner-task-kit/dev/emulator/request-log';

const loggedRequest = (endpoint: LoggedRequest['endpoint']): Omit<LoggedRequest, 'seq'> => ({
  time: '2026-01-01T00:00:00.000Z',
  endpoint,
  method: 'POST',
  path: '/',
  query: {},
  headers: {},
  body: null,
  status: 200,
});

describe('RequestLog', () => {
  it('keeps the newest entries up to its limit, oldest first', () => {
    const log = new RequestLog(3);
    for (const endpoint of ['token', 'workers', 'partnerTask', 'partnerTask', 'token'] as const) log.add(loggedRequest(endpoint));
    expect(log.list().map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(log.list('partnerTask').map((e) => e.seq)).toEqual([3, 4]);
    expect(log.list(undefined, 1).map((e) => e.seq)).toEqual([5]);
    expect(log.clear()).toBe(3);
    expect(log.list()).toEqual([]);
  });

  it('holds nothing with a limit of zero', () => {
    const log = new RequestLog(0);
    log.add(loggedRequest('token'));
    expect(log.list()).toEqual([]);
  });
});

describe('FaultQueue', () => {
  it('lets the first matching fault decide, and removes it when its count is used', () => {
    const faults = new FaultQueue();
    faults.add({ endpoint: 'workers', kind: 'drop', count: 1 });
    faults.add({ endpoint: 'any', kind: 'status', count: 2 });
    expect(faults.take('partnerTask')?.kind).toBe('status');
    expect(faults.take('workers')?.kind).toBe('drop');
    expect(faults.take('workers')?.kind).toBe('status');
    expect(faults.take('workers')).toBeUndefined();
  });

  it('lets a fault aimed at one assigned task decide only that task’s updates', () => {
    const faults = new FaultQueue();
    faults.add({
      endpoint: 'partnerTask',
      kind: 'status',
      count: 2,
      status: 503,
      assignedTaskUuid: 'AAAAAAAA-0000-4000-8000-000000000000',
    });
    expect(faults.take('partnerTask', 'bbbbbbbb-0000-4000-8000-000000000000')).toBeUndefined();
    expect(faults.take('partnerTask')).toBeUndefined();
    expect(faults.take('partnerTask', 'aaaaaaaa-0000-4000-8000-000000000000')?.status).toBe(503);
    expect(faults.list()).toEqual([expect.objectContaining({ remaining: 1, assignedTaskUuid: 'aaaaaaaa-0000-4000-8000-000000000000' })]);
  });

  it('never lets expireToken decide a token request', () => {
    const faults = new FaultQueue();
    faults.add({ endpoint: 'any', kind: 'expireToken', count: 1 });
    expect(faults.take('token')).toBeUndefined();
    expect(faults.take('workers')?.kind).toBe('expireToken');
  });
});
