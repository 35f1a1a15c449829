import { describe, expect, it } from 'vitest';
import { clockTime, untilText } from '@partner-task-kit/dev/preview/time-text';

describe("the preview's times", () => {
  it('reads a time as the local 24-hour clock, each field two digits', () => {
    expect(clockTime(new Date(2026, 10, 26, 7, 5, 9).toISOString())).toBe('07:05:09');
    expect(clockTime(new Date(2026, 10, 26, 23, 59, 0).toISOString())).toBe('23:59:00');
  });

  it('shows a value that is not a time as it came', () => {
    expect(clockTime('soon')).toBe('soon');
  });

  it('counts the seconds to a time still to come', () => {
    const now = Date.parse('2026-11-26T10:00:00.000Z');
    expect(untilText('2026-11-26T10:00:03.200Z', now)).toBe('in 3 s');
    expect(untilText('2026-11-26T09:59:59.000Z', now)).toBe('due now');
  });
});
