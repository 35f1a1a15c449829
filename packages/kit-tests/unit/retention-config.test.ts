import { describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';

const DAY = 24 * 60 * 60_000;

describe('the retention settings', () => {
  it('keep delivered outbox rows 30 days and finished tasks’ answers for ever, unless told otherwise', () => {
    expect(parseConfig({})).toMatchObject({ ok: true, config: { retention: { outboxMs: 30 * DAY, taskDataMs: undefined } } });
    expect(parseConfig({ OUTBOX_RETENTION_DAYS: '7', TASK_DATA_RETENTION_DAYS: '365' })).toMatchObject({
      ok: true,
      config: { retention: { outboxMs: 7 * DAY, taskDataMs: 365 * DAY } },
    });
    // Empty counts as unset, as for every variable: a `.env` line left from a template.
    expect(parseConfig({ TASK_DATA_RETENTION_DAYS: ' ' })).toMatchObject({ ok: true, config: { retention: { taskDataMs: undefined } } });
  });

  it('names a bad value and what it expects', () => {
    expect(parseConfig({ OUTBOX_RETENTION_DAYS: '0', TASK_DATA_RETENTION_DAYS: '1.5' })).toEqual({
      ok: false,
      problems: [
        'OUTBOX_RETENTION_DAYS: expected a whole number from 1 to 36500, got "0"',
        'TASK_DATA_RETENTION_DAYS: expected a whole number of days from 1 to 36500, got "1.5"',
      ],
    });
  });
});
