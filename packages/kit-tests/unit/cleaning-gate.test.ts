import { describe, expect, it } from 'vitest';
import { createCleaningGate } from '@partner-task-kit/server/uploads/cleaning-gate';

/** A cleaning the test ends when it chooses, recording when it started. */
function heldCleaning(log: string[], name: string) {
  let finish!: (outcome: 'done' | Error) => void;
  const ended = new Promise<'done' | Error>((resolve) => (finish = resolve));
  const clean = async () => {
    log.push(`start ${name}`);
    const outcome = await ended;
    if (outcome instanceof Error) throw outcome;
    return name;
  };
  return { clean, finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the cleaning gate', () => {
  it('cleans one file at a time, the others in the order they came', async () => {
    const turn = createCleaningGate();
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => heldCleaning(log, name));
    const results = [turn(a!.clean), turn(b!.clean), turn(c!.clean)];
    await settle();
    expect(log).toEqual(['start a']);
    a!.finish('done');
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    b!.finish('done');
    c!.finish('done');
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'start b', 'start c']);
  });

  it('passes the turn on when a cleaning fails, and gives the failure to its caller', async () => {
    const turn = createCleaningGate();
    const log: string[] = [];
    const [a, b] = ['a', 'b'].map((name) => heldCleaning(log, name));
    const failing = turn(a!.clean);
    const next = turn(b!.clean);
    a!.finish(new Error('unreadable'));
    await expect(failing).rejects.toThrow('unreadable');
    b!.finish('done');
    expect(await next).toBe('b');
    // Free again: a new cleaning starts at once.
    const c = heldCleaning(log, 'c');
    const later = turn(c.clean);
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    c.finish('done');
    await later;
  });
});
