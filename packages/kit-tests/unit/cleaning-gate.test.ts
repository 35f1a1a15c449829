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

/** A cleaning's estimated memory in the tests of turns alone, where the budget holds them all. */
const MB = 1024 * 1024;

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the cleaning gate', () => {
  it('with one slot, cleans one file at a time, those of one task in the order they came', async () => {
    const turn = createCleaningGate(1, 64 * MB);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => heldCleaning(log, name));
    const results = [turn('task', MB, a!.clean), turn('task', MB, b!.clean), turn('task', MB, c!.clean)];
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
    const turn = createCleaningGate(1, 64 * MB);
    const log: string[] = [];
    const [a, b] = ['a', 'b'].map((name) => heldCleaning(log, name));
    const failing = turn('one', MB, a!.clean);
    const next = turn('other', MB, b!.clean);
    a!.finish(new Error('unreadable'));
    await expect(failing).rejects.toThrow('unreadable');
    b!.finish('done');
    expect(await next).toBe('b');
    // Free again: a new cleaning starts at once.
    const c = heldCleaning(log, 'c');
    const later = turn('one', MB, c.clean);
    await settle();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    c.finish('done');
    await later;
  });

  it("gives a task's one file its turn before another task's later files, whichever came first", async () => {
    const turn = createCleaningGate(1, 64 * MB);
    const log: string[] = [];
    const [a1, a2, a3, b1] = ['a1', 'a2', 'a3', 'b1'].map((name) => heldCleaning(log, name));
    const results = [turn('A', MB, a1!.clean), turn('A', MB, a2!.clean), turn('A', MB, a3!.clean)];
    await settle();
    results.push(turn('B', MB, b1!.clean));
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
    const turn = createCleaningGate(2, 64 * MB);
    const log: string[] = [];
    const [a1, a2, a3, b1, c1] = ['a1', 'a2', 'a3', 'b1', 'c1'].map((name) => heldCleaning(log, name));
    const results = [
      turn('A', MB, a1!.clean),
      turn('A', MB, a2!.clean),
      turn('A', MB, a3!.clean),
      turn('B', MB, b1!.clean),
      turn('C', MB, c1!.clean),
    ];
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

  it('starts a cleaning only when its memory fits beside those running, one alone whatever its size', async () => {
    const turn = createCleaningGate(3, 50 * MB);
    const log: string[] = [];
    const [big1, big2, huge] = ['big1', 'big2', 'huge'].map((name) => heldCleaning(log, name));
    const results = [turn('A', 40 * MB, big1!.clean), turn('B', 40 * MB, big2!.clean), turn('C', 500 * MB, huge!.clean)];
    await settle();
    expect(log).toEqual(['start big1']);
    big1!.finish('done');
    await settle();
    expect(log).toEqual(['start big1', 'start big2']);
    big2!.finish('done');
    await settle();
    expect(log).toEqual(['start big1', 'start big2', 'start huge']);
    huge!.finish('done');
    expect(await Promise.all(results)).toEqual(['big1', 'big2', 'huge']);
  });

  it("lets a later task's small cleaning that fits go ahead of a large one that waits, a few times at most", async () => {
    const turn = createCleaningGate(2, 50 * MB);
    const log: string[] = [];
    const names = ['big1', 'big2', 's1', 's2', 's3', 's4', 's5'];
    const held = Object.fromEntries(names.map((name) => [name, heldCleaning(log, name)]));
    const results = [turn('A', 40 * MB, held.big1!.clean), turn('B', 40 * MB, held.big2!.clean)];
    for (const name of names.slice(2)) results.push(turn(name, 5 * MB, held[name]!.clean));
    await settle();
    // big2 does not fit beside big1; s1, of a task after it, does.
    expect(log).toEqual(['start big1', 'start s1']);
    for (const name of ['s1', 's2', 's3']) {
      held[name]!.finish('done');
      await settle();
    }
    // big2 was passed over four times (s1 to s4): s5 waits behind it now, though it would fit.
    expect(log).toEqual(['start big1', 'start s1', 'start s2', 'start s3', 'start s4']);
    held.s4!.finish('done');
    await settle();
    expect(log.at(-1)).toBe('start s4');
    held.big1!.finish('done');
    await settle();
    expect(log.slice(-2)).toEqual(['start big2', 'start s5']);
    held.big2!.finish('done');
    held.s5!.finish('done');
    await Promise.all(results);
  });
});
