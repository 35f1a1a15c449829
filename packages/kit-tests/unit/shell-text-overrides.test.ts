import { describe, expect, it } from 'vitest';
import { withOverrides } from '@partner-task-kit/page/ui/i18n/shell-text-overrides';
import { shellTextsEn } from '@partner-task-kit/page/ui/i18n/shell-texts.en';

describe("the app's versions of the shell's texts, over the kit's", () => {
  it('replace the texts the app sets, at any depth, and keep every other', () => {
    const texts = withOverrides(shellTextsEn, {
      documentTitle: 'Acme onboarding',
      done: { title: 'Thank you', reopened: { keep: 'Leave it' } },
      errors: { network: 'No connection.' },
    });
    expect(texts.documentTitle).toBe('Acme onboarding');
    expect(texts.done.title).toBe('Thank you');
    expect(texts.done.reopened.keep).toBe('Leave it');
    expect(texts.errors.network).toBe('No connection.');
    expect(texts.done.reopened.redo).toBe(shellTextsEn.done.reopened.redo);
    expect(texts.done.portalNotified).toBe(shellTextsEn.done.portalNotified);
    expect(texts.errors.server).toBe(shellTextsEn.errors.server);
    expect(texts.saving).toBe(shellTextsEn.saving);
  });

  it('replace a text with parameters by the app’s function', () => {
    const texts = withOverrides(shellTextsEn, { progress: (step, total) => `Part ${step} of ${total}` });
    expect(texts.progress(1, 4)).toBe('Part 1 of 4');
    expect(texts.done.body('May 1')).toBe(shellTextsEn.done.body('May 1'));
  });

  it('leave the kit’s texts themselves as they were', () => {
    withOverrides(shellTextsEn, { documentTitle: 'Acme onboarding', done: { title: 'Thank you' } });
    expect(shellTextsEn.documentTitle).toBe('Onboarding task');
    expect(shellTextsEn.done.title).toBe('All done');
  });

  it('are the kit’s texts, unchanged, when the app sets none', () => {
    expect(withOverrides(shellTextsEn, undefined)).toEqual(shellTextsEn);
  });
});
