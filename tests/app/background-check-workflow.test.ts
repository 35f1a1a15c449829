import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { locales, type Locale, MissingStepScreenError } from '@partner-task-kit/page/screens';
import { findWorkflow, listWorkflows } from '../../src/workflows/registry';
import { backgroundCheckWorkflow, checkResultSchema, consentDataSchema } from '../../src/workflows/background-check/definition';
import { BackgroundCheckStep, screens } from '../../src/workflows/background-check/background-check-step';
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

describe('the background-check workflow in the registry and on screen', () => {
  it('is registered under its id, so the server runs it and the preview offers it', () => {
    expect(findWorkflow('background-check')?.definition).toBe(backgroundCheckWorkflow);
    expect(listWorkflows()).toContain(backgroundCheckWorkflow);
  });

  // The page has them in before the screens count as loaded (packages/page/src/workflows/workflow-views.tsx).
  beforeAll(() => Promise.all(locales.map((locale) => screens.loadTexts?.(locale))));

  const render = (stepId: string, locale: Locale) =>
    renderToStaticMarkup(
      createElement(BackgroundCheckStep, {
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

  it('throws MissingStepScreenError for a step it has no screen for, which the runner shows as such', () => {
    expect(() => render('not-a-step', 'en')).toThrow(MissingStepScreenError);
  });
});
