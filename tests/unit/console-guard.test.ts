import { describe, expect, it } from 'vitest';
import { ConsoleErrorWatch, expectConsoleError } from '../helpers/console-errors';

describe('the console.error guard', () => {
  it('reports what a test printed without declaring it, and restores console.error', () => {
    const original = console.error;
    const watch = new ConsoleErrorWatch().start();
    console.error('something broke', new Error('boom'));
    expect(watch.stop()).toEqual([expect.stringMatching(/^something broke Error: boom/)]);
    expect(console.error).toBe(original);
  });

  it('lets a declared console.error through', () => {
    const watch = new ConsoleErrorWatch().start();
    watch.expect(/^declared failure$/);
    console.error('declared failure');
    console.error('not declared');
    expect(watch.stop()).toEqual(['not declared']);
  });

  it('is on for every test: an undeclared error here would fail this test', () => {
    expectConsoleError(/^declared through the setup$/);
    console.error('declared through the setup');
    expect(() => expectConsoleError(/x/)).not.toThrow();
  });
});
