import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TaskView } from '@partner-task-kit/workflow/contract';
import { locales, type Locale, refused, type StepRefusal, type StepScreenProps } from '@partner-task-kit/page/screens';
import { sensitivePaths, checkOnPage, answeredPath, longestPathOf, progressOf, workflowProblems } from '@partner-task-kit/workflow';
import definition, { workAuthorization, workAuthorizationSchemas } from '../../src/workflows/work-authorization/definition';
import Citizenship from '../../src/workflows/work-authorization/steps/citizenship';
import DocumentStep from '../../src/workflows/work-authorization/steps/document';
import NationalId from '../../src/workflows/work-authorization/steps/national-id';
import Postcode from '../../src/workflows/work-authorization/steps/postcode';
import Verification from '../../src/workflows/work-authorization/steps/verification';
import type { WorkAuthorizationTexts } from '../../src/workflows/work-authorization/texts';
import workAuthorizationTextsEn from '../../src/workflows/work-authorization/texts.en';
import workAuthorizationTextsEs from '../../src/workflows/work-authorization/texts.es';
import { readyTaskView } from '@partner-task-kit/testing';

/** The field each issue names, as the server's 400 invalid_step_data names `data.<field>`. */
function problems(stepId: keyof typeof workAuthorizationSchemas, data: unknown): string[] {
  return (workAuthorizationSchemas[stepId].safeParse(data).error?.issues ?? []).map((issue) => issue.path.join('.'));
}

/** Two upload ids, as the photos step holds them. */
const photos = { front: 'F'.repeat(22), back: 'B'.repeat(22) };

const ids = (stepData: Record<string, unknown>) => answeredPath(workAuthorization, stepData).steps.map((step) => step.id);

describe('the work-authorization workflow: its path', () => {
  it('is a graph the engine runs: every step reachable, no loop, an end', () => {
    expect(workflowProblems(workAuthorization)).toEqual([]);
  });

  it('takes citizens to their national ID and everyone else to a document, then both to the photos and the postcode', () => {
    expect(ids({ citizenship: { citizen: true } })).toEqual(['citizenship', 'national-id']);
    expect(ids({ citizenship: { citizen: false } })).toEqual(['citizenship', 'document']);
    expect(ids({ citizenship: { citizen: true }, 'national-id': { nationalId: 'AB12CD' } })).toEqual([
      'citizenship',
      'national-id',
      'photos',
    ]);
    expect(ids({ citizenship: { citizen: false }, document: { documentType: 'passport', expiryDate: '2031-01-01' } })).toEqual([
      'citizenship',
      'document',
      'photos',
    ]);
    expect(ids({ citizenship: { citizen: false }, document: { documentType: 'passport', expiryDate: '2031-01-01' }, photos })).toEqual([
      'citizenship',
      'document',
      'photos',
      'postcode',
    ]);
  });

  it('counts 6 steps at most, and both branches as long, so progress never reads "Step 6 of 5"', () => {
    expect(longestPathOf(workAuthorization)).toBe(6);
    const citizen = { citizenship: { citizen: true }, 'national-id': { nationalId: 'AB12CD' }, photos, postcode: { postcode: '28013' } };
    expect(progressOf(workAuthorization, citizen, 'appointment')).toEqual({ position: 5, total: 6 });
  });
});

describe('the work-authorization workflow: what each step takes', () => {
  it('takes yes or no for citizenship', () => {
    expect(problems('citizenship', { citizen: true })).toEqual([]);
    expect(problems('citizenship', { citizen: 'yes' })).toEqual(['citizen']);
  });

  it('takes a national ID of 6 to 12 letters or digits, and marks it sensitive', () => {
    expect(problems('national-id', { nationalId: 'ab12cd' })).toEqual([]);
    expect(problems('national-id', { nationalId: '••••CD' })).toEqual(['nationalId']);
    expect(sensitivePaths(workAuthorizationSchemas['national-id'])).toEqual([['nationalId']]);
  });

  it('takes a document type and a real date', () => {
    expect(problems('document', { documentType: 'passport', expiryDate: '2031-02-28' })).toEqual([]);
    expect(problems('document', { documentType: 'licence', expiryDate: '2031-02-30' })).toEqual(['documentType', 'expiryDate']);
  });
});

describe("the work-authorization workflow: the document's check, on the page as on the server", () => {
  const task: TaskView = { ...readyTaskView, stepData: { citizenship: { citizen: false } } };
  const now = new Date('2026-11-27T23:30:00Z');

  it('refuses an expiry date that is not after today (UTC, as the server counts it)', () => {
    expect(checkOnPage(workAuthorization, task, 'document', { documentType: 'passport', expiryDate: '2026-11-27' }, now)).toEqual({
      path: ['expiryDate'],
      message: 'must be after today',
    });
    expect(checkOnPage(workAuthorization, task, 'document', { documentType: 'passport', expiryDate: '2026-11-28' }, now)).toBeUndefined();
  });

  it("reads the server's refusal of data.expiryDate as one of that field", () => {
    const refusal = { field: 'data.expiryDate', message: 'data.expiryDate must be after today' };
    expect(refused(refusal, 'expiryDate')).toBe(true);
    expect(refused(refusal, 'documentType')).toBe(false);
    expect(refused(undefined, 'expiryDate')).toBe(false);
  });
});

describe('the work-authorization workflow as a folder and on screen', () => {
  it('is its folder’s workflow, so the server runs it and the preview offers it', () => {
    // docs/architecture.md#a-workflow-is-a-folder: the definition is the default export, its id the folder's name.
    expect(definition).toBe(workAuthorization);
    expect(workAuthorization.id).toBe('work-authorization');
  });

  const texts = { en: workAuthorizationTextsEn, es: workAuthorizationTextsEs };
  // Each step's screen is its own file (steps/<step-id>.tsx); the photos and the appointment have tests of their own.
  const screens: Record<string, (props: StepScreenProps<WorkAuthorizationTexts>) => ReactNode> = {
    citizenship: Citizenship,
    'national-id': NationalId,
    document: DocumentStep,
    postcode: Postcode,
    verification: Verification,
  };
  const render = (stepId: string, locale: Locale, savedData?: unknown, refusal?: StepRefusal) =>
    renderToStaticMarkup(
      createElement(screens[stepId]!, {
        texts: texts[locale],
        task: {
          ...readyTaskView,
          workflow: { id: 'work-authorization', estimatedMinutes: 5, steps: workAuthorization.steps.map(({ id }) => ({ id })) },
          currentStep: stepId,
        },
        stepId,
        savedData,
        locale,
        saving: false,
        grading: undefined,
        headingId: 'step-title',
        focusHeading: false,
        refusal,
        onSubmit: () => {},
      }),
    );

  const inputsOf = (html: string) => [...html.matchAll(/<(?:input|textarea|select)\b[^>]*\bid="([^"]+)"/g)].map((match) => match[1]);

  it.each(locales)('renders each step the worker answers in %s, each input with its label', (locale) => {
    const expected: Record<string, string[]> = {
      citizenship: ['citizen-yes', 'citizen-no'],
      'national-id': ['national-id'],
      document: ['document-type', 'document-expiry'],
      postcode: ['postcode'],
    };
    for (const [stepId, inputs] of Object.entries(expected)) {
      const html = render(stepId, locale);
      expect(html).toContain('<h1 id="step-title"');
      expect(inputsOf(html), stepId).toEqual(inputs);
      for (const input of inputs) expect(html, `the label of #${input}`).toContain(`for="${input}"`);
    }
  });

  it.each(locales)('renders the verification as a waiting screen in %s: nothing to submit', (locale) => {
    expect(render('verification', locale)).not.toMatch(/<(input|button|form)\b/);
  });

  it('never prefills a saved national ID with its mask, and says a number ending so is saved', () => {
    const html = render('national-id', 'en', { nationalId: '••••CD' });
    expect(html).not.toContain('••••');
    expect(html).toMatch(/<input[^>]*id="national-id"[^>]*value=""/);
    expect(html).toContain('A number ending in CD is saved');
  });

  it('shows a saved document again for editing, and the refusal of its expiry date on that input', () => {
    const html = render(
      'document',
      'es',
      { documentType: 'work-visa', expiryDate: '2025-01-01' },
      {
        field: 'data.expiryDate',
        message: 'data.expiryDate must be after today',
      },
    );
    expect(html).toMatch(/<option value="work-visa" selected="">/);
    expect(html).toMatch(/<input[^>]*aria-invalid="true"[^>]*id="document-expiry"|<input[^>]*id="document-expiry"[^>]*aria-invalid="true"/);
    expect(html).toContain('id="document-expiry-error" class="field-error">La fecha de caducidad debe ser posterior a hoy');
  });

  it('brings its own done screen, and the shell’s failure screen', () => {
    const folder = new URL('../../src/workflows/work-authorization/', import.meta.url);
    expect(existsSync(fileURLToPath(new URL('done.tsx', folder)))).toBe(true);
    expect(existsSync(fileURLToPath(new URL('failed.tsx', folder)))).toBe(false);
  });
});
