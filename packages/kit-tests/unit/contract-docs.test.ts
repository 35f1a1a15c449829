import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiErrorStatus } from '@partner-task-kit/workflow/contract/api-errors';

/** The error table of docs/api.md, as [code, status] pairs: a row may name several codes (`a`, `b`). */
function documentedCodes(): Array<[string, number]> {
  const page = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  const start = page.indexOf('\n## Error codes\n');
  expect(start).toBeGreaterThan(-1);
  const section = page.slice(start, page.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((line) => /^\| `[a-z_]+`/.test(line));
  return rows.flatMap((row) => {
    const [codes = '', status = ''] = row.split('|').slice(1, 3);
    return [...codes.matchAll(/`([a-z_]+)`/g)].map((match): [string, number] => [match[1]!, Number(status.trim())]);
  });
}

describe('the error codes of the contract', () => {
  it('are the table of docs/api.md, code for code and status for status', () => {
    const documented = documentedCodes();
    expect(documented.length).toBeGreaterThan(0);
    expect(Object.fromEntries(documented)).toEqual(apiErrorStatus);
    expect(new Set(documented.map(([code]) => code)).size).toBe(documented.length);
  });
});
