import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { locales, type Locale } from '@partner-task-kit/page/screens';
import definition, { backgroundCheckWorkflow, checkResultSchema, consentDataSchema } from '../../src/workflows/background-check/definition';
import CheckStep from '../../src/workflows/background-check/steps/check';
import ConsentStep from '../../src/workflows/background-check/steps/consent';
import textsEn from '../../src/workflows/background-check/texts.en';
import textsEs from '../../src/workflows/background-check/texts.es';
import { readyTaskView } from '@partner-task-kit/testing';

const consent = { fullName: 'Ana María López', agree: true };

/** The field each issue names, as the server's 400 invalid_step_data names `data.<field>`. */
function problems(schema: typeof consentDataSchema | typeof checkResultSchema, data: unknown): string[] {
  return (schema.safeParse(data).error?.issues ?? []).map((issue) => issue.path.join('.'));
}

describe('the background-check workflow: the worker consents', () => {
  it('takes a full name of 2 to 100 characters and the consent', () => {
    expect(problems(consentDataSchema, consent)).toEqual([]);
    expect(problems(consentDataSchema, { ...consent, fullName: 'A' })).toEqual(['fullName']);
    expect(problems(consentDataSchema, { ...consent, fullName: 'x'.repeat(101) })).toEqual(['fullName']);
  });

  it('refuses anything but an explicit consent, and any other field', () => {
    expect(problems(consentDataSchema, { ...consent, agree: false })).toEqual(['agree']);
    expect(problems(consentDataSchema, { fullName: consent.fullName })).toEqual(['agree']);
    expect(problems(consentDataSchema, { ...consent, email: 'a@example.com' })).toEqual(['']);
  });

  it('tells the platform that consent was given, never the name', () => {
    const report = backgroundCheckWorkflow.steps[0]!.report(consent, undefined);
    expect(report).toEqual({ color: 'success', details: 'The worker consented to the background check.' });
  });
});

describe('the background-check workflow: the partner reports the check', () => {
  const check = backgroundCheckWorkflow.steps[1]!;

  it('is completed by the partner, and says so to the platform while it waits', () => {
    expect(check.completedBy).toBe('partner');
    expect(check.awaiting).toMatchObject({ color: 'warning' });
  });

  it('takes passed or failed with optional details of at most 500 characters', () => {
    expect(problems(checkResultSchema, { result: 'passed' })).toEqual([]);
    expect(problems(checkResultSchema, { result: 'failed', details: 'Record found.' })).toEqual([]);
    expect(problems(checkResultSchema, { result: 'maybe' })).toEqual(['result']);
    expect(problems(checkResultSchema, { result: 'passed', details: 'x'.repeat(501) })).toEqual(['details']);
  });

  it('completes the task on passed and fails it on failed, with the details for the admin', () => {
    expect(check.report({ result: 'passed' }, undefined)).toEqual({ color: 'success', details: 'The background check passed.' });
    expect(check.report({ result: 'failed', details: 'Record found.' }, undefined)).toEqual({
      color: 'danger',
      details: 'The background check did not pass. Record found.',
      failed: true,
    });
  });
});

describe('the background-check workflow as a folder and on screen', () => {
  it('is its folder’s workflow, so the server runs it and the preview offers it', () => {
    // docs/architecture.md#a-workflow-is-a-folder: the definition is the default export, its id the folder's name.
    expect(definition).toBe(backgroundCheckWorkflow);
    expect(backgroundCheckWorkflow.id).toBe('background-check');
  });

  // Each step's screen is its own file, handed its texts in the page's language (steps/<step-id>.tsx).
  const screens = { consent: ConsentStep, check: CheckStep };
  const texts = { en: textsEn, es: textsEs };
  const render = (stepId: keyof typeof screens, locale: Locale) =>
    renderToStaticMarkup(
      createElement(screens[stepId], {
        texts: texts[locale],
        task: { ...readyTaskView, workflow: { id: 'background-check', estimatedMinutes: 2, steps: [{ id: stepId }] }, currentStep: stepId },
        stepId,
        savedData: undefined,
        locale,
        saving: false,
        grading: undefined,
        headingId: 'step-title',
        focusHeading: false,
        onSubmit: () => {},
      }),
    );

  it.each(locales)('renders the consent form in %s, each input with its label', (locale) => {
    const html = render('consent', locale);
    expect(html).toContain('<h1 id="step-title"');
    const inputs = [...html.matchAll(/<(?:input|textarea|select)\b[^>]*\bid="([^"]+)"/g)].map((match) => match[1]);
    expect(inputs).toEqual(['consent-name', 'consent-agree']);
    for (const input of inputs) expect(html, `the label of #${input}`).toContain(`for="${input}"`);
  });

  it.each(locales)('renders the waiting screen in %s: nothing to submit, and the worker may leave', (locale) => {
    const html = render('check', locale);
    expect(html).toContain('<h1 id="step-title"');
    expect(html).not.toMatch(/<(input|button|form)\b/);
  });
});
