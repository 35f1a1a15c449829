import { describe, expect, it } from 'vitest';
import { ApiError } from '@partner-task-kit/page/api/api-error';
import { errorKind } from '@partner-task-kit/page/task/error-text';
import { shellTextsEn } from '@partner-task-kit/page/ui/i18n/shell-texts.en';
import { shellTextsEs } from '@partner-task-kit/page/ui/i18n/shell-texts.es';

describe('what the page says about a refused task', () => {
  it('names the case and what to do for a company not set up, a rejected task, a task bound to other details and a link naming a workflow not offered', () => {
    for (const [code, status] of [
      ['unknown_company', 403],
      ['task_rejected', 410],
      ['context_mismatch', 409],
      ['unknown_workflow', 400],
    ] as const) {
      const kind = errorKind(new ApiError(status, code, 'server message'));
      expect(kind).toBe(code);
      expect(shellTextsEn.errors[kind]).toMatch(/tell|Tell/);
      expect(shellTextsEs.errors[kind]).toMatch(/avisa|Avisa/);
    }
  });
});
