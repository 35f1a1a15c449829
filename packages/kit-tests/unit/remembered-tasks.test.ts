import { describe, expect, it } from 'vitest';
import { RememberedTasks } from '@partner-task-kit/server/delivery/relay-claims';

describe('the tasks a relay remembers as confirmed', () => {
  it('names each task not remembered once, and none once remembered', () => {
    const remembered = new RememberedTasks();
    expect(remembered.unknown(['a', 'b', 'a'])).toEqual(['a', 'b']);
    remembered.remember(['a']);
    expect(remembered.unknown(['a', 'b'])).toEqual(['b']);
  });

  it('forgets everything when full, so memory stays bounded and a forgotten task is only confirmed again', () => {
    const remembered = new RememberedTasks(2);
    remembered.remember(['a', 'b']);
    expect(remembered.unknown(['a', 'b'])).toEqual([]);
    remembered.remember(['c']);
    expect(remembered.unknown(['a', 'b', 'c'])).toEqual(['a', 'b']);
  });
});
