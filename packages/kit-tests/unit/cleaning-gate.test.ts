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
  it('with one slot, cleans one file at a time, those of one task in the order they came', async () => {
    const turn = createCleaningGate(1);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => heldCleaning(log, name));
    const results = [turn('task', a!.clean), turn('task', b!.clean), turn('task', c!.clean)];
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
    const turn = createCleaningGate(1);
    const log: string[] = [];
    const [a, b] = ['a', 'b'].map((name) => heldCleaning(log, name));
    const failing = turn('one', a!.clean);
    const next = turn('other', b!.clean);
    a!.finish(new Error('unreadable'));
    await expect(failing).rejects.toThrow('unreadable');
    b!.finish('done');
    expect(await next).toBe('b');
    // Free again: a new cleaning starts at once.
    const c = heldCleaning(log, 'c');
    const later = turn('one', c.clean);
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    c.finish('done');
    await later;
  });

  it("gives a task's one file its turn before another task's later files, whichever came first", async () => {
    const turn = createCleaningGate(1);
    const log: string[] = [];
    const [a1, a2, a3, b1] = ['a1', 'a2', 'a3', 'b1'].map((name) => heldCleaning(log, name));
    const results = [turn('A', a1!.clean), turn('A', a2!.clean), turn('A', a3!.clean)];
    await settle();
    results.push(turn('B', b1!.clean));
    a1!.finish('done');
    await settle();
    expect(log).toEqual(['start a1', 'start b1']);
    b1!.finish('done');
    await settle();
    a2!.finish('done');
    await settle();
    a3!.finish('done');
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(log).toEqual(['start a1', 'start b1', 'start a2', 'start a3']);
  });

  it('runs as many cleanings at once as it has slots, the next turn going to the task served longest ago', async () => {
    const turn = createCleaningGate(2);
    const log: string[] = [];
    const [a1, a2, a3, b1, c1] = ['a1', 'a2', 'a3', 'b1', 'c1'].map((name) => heldCleaning(log, name));
    const results = [turn('A', a1!.clean), turn('A', a2!.clean), turn('A', a3!.clean), turn('B', b1!.clean), turn('C', c1!.clean)];
    await settle();
    // A took both free slots before B and C came; then B and C, which had none, go before A's third.
    expect(log).toEqual(['start a1', 'start a2']);
    a2!.finish('done');
    await settle();
    a1!.finish('done');
    await settle();
    expect(log).toEqual(['start a1', 'start a2', 'start b1', 'start c1']);
    for (const each of [b1, c1, a3]) each!.finish('done');
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);
    expect(log.at(-1)).toBe('start a3');
  });
});
