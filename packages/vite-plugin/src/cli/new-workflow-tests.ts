import { stepIds, type WorkflowNames } from './new-workflow-names.ts';

/**
 * The unit test `npm run new-workflow` writes beside the workflow, in tests/app/<id>-workflow.test.ts: what its steps
 * take and tell the platform, and each screen rendered in every language the page speaks.
 */
const { channel, contact, email } = stepIds;

/** The imports and the `describe` every workflow's test has: its screens, one per step, rendered in each language. */
function onScreen({ id, camel, pascal }: WorkflowNames, steps: readonly string[]) {
  const folder = `../../src/workflows/${id}`;
  const screen = (step: string) => step.charAt(0).toUpperCase() + step.slice(1);
  const imports = `import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { locales, type Locale, type StepScreenProps } from '@partner-task-kit/page/screens';
import { readyTaskView } from '@partner-task-kit/testing';
${steps.map((step) => `import ${screen(step)} from '${folder}/steps/${step}';`).join('\n')}
import type { ${pascal}Texts } from '${folder}/texts';
import textsEn from '${folder}/texts.en';
import textsEs from '${folder}/texts.es';`;
  const block = `
describe('the ${id} workflow on screen', () => {
  // Each screen by the name of its file in steps/, which is its step's id: the page's build finds them so.
  const screens: Record<string, ComponentType<StepScreenProps<${pascal}Texts>>> = { ${steps.map((step) => `${step}: ${screen(step)}`).join(', ')} };
  const texts: Record<Locale, ${pascal}Texts> = { en: textsEn, es: textsEs };

  it('is the workflow of its folder, with a screen for each step', () => {
    expect(${camel}Workflow.id).toBe('${id}');
    expect(Object.keys(screens).sort()).toEqual(${camel}Workflow.steps.map((step) => step.id).sort());
  });

  const render = (stepId: string, locale: Locale) =>
    renderToStaticMarkup(
      createElement(screens[stepId]!, {
        task: { ...readyTaskView, workflow: { id: '${id}', estimatedMinutes: 2, steps: [{ id: stepId }] }, currentStep: stepId },
        stepId,
        savedData: undefined,
        locale,
        texts: texts[locale],
        saving: false,
        grading: undefined,
        headingId: 'step-title',
        focusHeading: false,
        onSubmit: () => {},
      }),
    );

  it.each(locales)('renders every step in %s, each input with its label', (locale) => {
    for (const { id: stepId } of ${camel}Workflow.steps) {
      const html = render(stepId, locale);
      expect(html).toContain('<h1 id="step-title"');
      const inputs = [...html.matchAll(/<(?:input|textarea|select)\\b[^>]*\\bid="([^"]+)"/g)].map((match) => match[1]);
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) expect(html, \`the label of #\${input}\`).toContain(\`for="\${input}"\`);
    }
  });
});
`;
  return { imports, block };
}

export function unitTestFile(names: WorkflowNames): string {
  const { id, camel } = names;
  const { imports, block } = onScreen(names, [contact]);
  return `${imports}
import ${camel}Workflow, { ${contact}DataSchema } from '../../src/workflows/${id}/definition';

const answers = { phone: '+34 600 123 456', contactTime: 'evening' };

/** The field each issue names, as the server's 400 invalid_step_data names \`data.<field>\`. */
function problems(data: unknown): string[] {
  return (${contact}DataSchema.safeParse(data).error?.issues ?? []).map((issue) => issue.path.join('.'));
}

describe('the ${id} workflow: its ${contact} step', () => {
  it('takes a phone number and when to call', () => {
    expect(problems(answers)).toEqual([]);
  });

  it.each(['', '12', 'call me', '+34 600 123 456 ext. 7'])('refuses %j as a phone number', (phone) => {
    expect(problems({ ...answers, phone })).toEqual(['phone']);
  });

  it('requires when to call, and refuses any other field', () => {
    expect(problems({ phone: answers.phone })).toEqual(['contactTime']);
    expect(problems({ ...answers, contactTime: 'night' })).toEqual(['contactTime']);
    expect(problems({ ...answers, email: 'a@example.com' })).toEqual(['']);
  });

  it('tells the platform when to call, never the number', () => {
    const report = ${camel}Workflow.steps[0]!.report(answers, undefined);
    expect(report).toEqual({ color: 'success', details: 'Contact details saved: best reached in the evening.' });
    expect(report.details).not.toContain('600');
  });
});
${block}`;
}

export function branchUnitTestFile(names: WorkflowNames): string {
  const { id, camel } = names;
  const { imports, block } = onScreen(names, [channel, contact, email]);
  return `${imports}
import { answeredPath, longestPathOf, workflowProblems } from '@partner-task-kit/workflow';
import ${camel}Workflow, { ${camel}Schemas } from '../../src/workflows/${id}/definition';

const path = (answers: Record<string, unknown>) => answeredPath(${camel}Workflow, answers).steps.map((step) => step.id);

describe('the ${id} workflow: its path', () => {
  it('is a graph the engine runs: every step reachable, no loop, an end', () => {
    expect(workflowProblems(${camel}Workflow)).toEqual([]);
    expect(longestPathOf(${camel}Workflow)).toBe(2);
  });

  it('goes to the ${contact} step for a call and to the ${email} step for an email, and ends after either', () => {
    expect(path({ ${channel}: { channel: 'phone' } })).toEqual(['${channel}', '${contact}']);
    expect(path({ ${channel}: { channel: 'email' } })).toEqual(['${channel}', '${email}']);
    const called = { ${channel}: { channel: 'phone' }, ${contact}: { phone: '+34 600 123 456', contactTime: 'evening' } };
    expect(answeredPath(${camel}Workflow, called).ends).toBe(true);
  });

  it('takes what each step asks, and refuses the rest', () => {
    expect(${camel}Schemas.${channel}.safeParse({ channel: 'post' }).success).toBe(false);
    expect(${camel}Schemas.${email}.safeParse({ email: 'ana@example.com' }).success).toBe(true);
    expect(${camel}Schemas.${email}.safeParse({ email: 'ana' }).success).toBe(false);
  });
});
${block}`;
}
