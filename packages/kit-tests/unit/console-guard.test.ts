import { describe, expect, it, vi } from 'vitest';
import { ConsoleErrorWatch, expectConsoleError } from '../helpers/console-errors';

describe('the console.error guard', () => {
  it('reports what was printed without being declared, as printed, and restores console.error', () => {
    const original = console.error;
    const watch = new ConsoleErrorWatch().start();
    console.error('%s broke', 'something', new Error('boom'));
    expect(watch.stop()).toEqual([expect.stringMatching(/^something broke Error: boom\n\s+at /)]);
    expect(console.error).toBe(original);
  });

  it('lets a declared console.error through', () => {
    const watch = new ConsoleErrorWatch().start();
    watch.expect(/^declared failure$/);
    console.error('declared failure');
    console.error('not declared');
    expect(watch.stop()).toEqual(['not declared']);
  });

  it('nests: a watch started inside another hands console.error back to it', () => {
    const outer = new ConsoleErrorWatch().start();
    const inner = new ConsoleErrorWatch().start();
    console.error('inside');
    expect(inner.stop()).toEqual(['inside']);
    console.error('outside');
    expect(outer.stop()).toEqual(['outside']);
  });

  it('is on for every test: the declared error passes, and a declaration needs a reason', () => {
    expectConsoleError(/^declared through the setup$/, 'this test shows a declared error is let through');
    console.error('declared through the setup');
    expect(() => expectConsoleError(/x/, ' ')).toThrow(/needs a reason/);
  });

  it('leaves console.error alone when a test mocks it', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    console.error('handled by the test');
    expect(spy).toHaveBeenCalledWith('handled by the test');
    spy.mockRestore();
  });
});
