/**
 * The files `npm run new-workflow -- <id>` writes: a workflow of one step (a phone number typed into an InputField and
 * when to call chosen in a ChoiceGroup) and its unit test, made to pass `tsc -b`, `npm run lint` and the test as they
 * are, so that a partner starts from green and replaces the step with their own (src/workflows/README.md).
 * Formatted by prettier after they are written: the layout here need not be exact.
 */

/** The names one workflow id gives its files and identifiers: `sample-form` → `sampleForm`, `SampleForm`. */
export interface WorkflowNames {
  id: string;
  /** Prefix of the workflow's identifiers: `sampleFormWorkflow`, `sampleFormTextsEn`. */
  camel: string;
  /** Prefix of its types and components: `SampleFormTexts`, `SampleFormStep`. */
  pascal: string;
  /** The preview's default title for an assignment of it: "Sample form". */
  title: string;
  /** The one step's id. Its screen is `<step>-step.tsx`, which must not be the step switch `<id>-step.tsx`. */
  step: string;
}

export function workflowNames(id: string): WorkflowNames {
  const words = id.split('-');
  const capitalized = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return {
    id,
    camel: words[0] + capitalized.slice(1).join(''),
    pascal: capitalized.join(''),
    title: [capitalized[0], ...words.slice(1)].join(' '),
    step: id === 'contact' ? 'details' : 'contact',
  };
}

const stepPascal = (step: string) => step.charAt(0).toUpperCase() + step.slice(1);

export function definitionFile({ id, camel, pascal, title, step }: WorkflowNames): string {
  return `import { z } from 'zod/mini';
import { defineStep, type WorkflowDefinition } from '@partner-task-kit/workflow';

/**
 * ${title}: made by \`npm run new-workflow\` with one step to replace by your own (src/workflows/README.md says how).
 * Imported by the page and by the server, so nothing here may be secret.
 */
const WORKFLOW_ID = '${id}';

export const contactTimes = ['morning', 'afternoon', 'evening'] as const;
export type ContactTime = (typeof contactTimes)[number];

export const ${step}DataSchema = z.strictObject({
  // How people write a number: digits, spaces, brackets and hyphens, + before a country code.
  phone: z.string().check(z.trim(), z.regex(/^\\+?[0-9][0-9 ()-]{5,22}$/, 'must be a phone number of 6 to 23 digits, spaces, brackets or hyphens')),
  contactTime: z.enum(contactTimes, { error: 'choose morning, afternoon or evening' }),
});

/** The ids of the steps below: each has a screen and texts in this folder. */
export type ${pascal}StepId = '${step}';

export const ${camel}Workflow: WorkflowDefinition<typeof WORKFLOW_ID> = {
  id: WORKFLOW_ID,
  title: '${title}',
  estimatedMinutes: 2,
  steps: [
    defineStep({
      id: '${step}',
      shortName: '${stepPascal(step)}',
      schema: ${step}DataSchema,
      // English, for the admin's task panel. The number is the worker's own: it stays with the partner, out of the panel.
      report: (data) => ({ color: 'success', details: \`Contact details saved: best reached in the \${data.contactTime}.\` }),
    }),
  ],
};
`;
}

export function textsTypeFile({ pascal, step }: WorkflowNames): string {
  return `import type { ContactTime, ${pascal}StepId } from './definition';

/** Every text the worker sees in this workflow; one file per language. */
export interface ${pascal}Texts {
  stepTitles: Record<${pascal}StepId, string>;
  ${step}: {
    intro: string;
    phoneLabel: string;
    phoneHint: string;
    phoneError: string;
    timeLegend: string;
    times: Record<ContactTime, string>;
    timeError: string;
    submit: string;
  };
}
`;
}

const texts = {
  en: {
    title: 'How can we reach you?',
    intro: 'Leave a phone number and the time of day that suits you, and we will call you back.',
    phoneLabel: 'Phone number',
    phoneHint: 'With the country code if you are abroad, for example +34 600 123 456.',
    phoneError: 'Enter a phone number: digits, spaces and hyphens, with + before a country code.',
    timeLegend: 'When should we call?',
    times: {
      morning: 'In the morning (9:00 to 12:00)',
      afternoon: 'In the afternoon (12:00 to 17:00)',
      evening: 'In the evening (17:00 to 20:00)',
    },
    timeError: 'Choose when we should call.',
    submit: 'Send',
  },
  es: {
    title: '¿Cómo podemos contactarte?',
    intro: 'Déjanos un número de teléfono y el momento del día que te venga mejor, y te llamaremos.',
    phoneLabel: 'Número de teléfono',
    phoneHint: 'Con el prefijo del país si estás en el extranjero, por ejemplo +34 600 123 456.',
    phoneError: 'Indica un número de teléfono: cifras, espacios y guiones, con + delante del prefijo del país.',
    timeLegend: '¿Cuándo te llamamos?',
    times: {
      morning: 'Por la mañana (de 9:00 a 12:00)',
      afternoon: 'Por la tarde (de 12:00 a 17:00)',
      evening: 'Al final de la tarde (de 17:00 a 20:00)',
    },
    timeError: 'Elige cuándo te llamamos.',
    submit: 'Enviar',
  },
};

export function textsFile({ camel, pascal, step }: WorkflowNames, locale: 'en' | 'es'): string {
  const { title, ...stepTexts } = texts[locale];
  const suffix = locale === 'en' ? 'En' : 'Es';
  return `import type { ${pascal}Texts } from './texts';

export const ${camel}Texts${suffix}: ${pascal}Texts = ${JSON.stringify({ stepTitles: { [step]: title }, [step]: stepTexts }, null, 2)};
`;
}

export function stepSwitchFile({ title, camel, pascal, step }: WorkflowNames): string {
  const screen = `${stepPascal(step)}Step`;
  return `import { MissingStepScreenError, type Locale, type StepViewProps, type WorkflowScreens } from '@partner-task-kit/page/screens';
import { ${screen} } from './${step}-step';
import type { ${pascal}Texts } from './texts';
import { ${camel}TextsEn } from './texts.en';
import { ${camel}TextsEs } from './texts.es';

// Picked here, where they are used: texts.ts only types them, so the language files import that type without a cycle.
const textsByLocale: Record<Locale, ${pascal}Texts> = { en: ${camel}TextsEn, es: ${camel}TextsEs };

/** The screens of ${title}, one per step id of \`definition.ts\`. Loaded lazily (registry.views.ts). */
export function ${pascal}Step(props: StepViewProps) {
  const texts = textsByLocale[props.locale];
  switch (props.stepId) {
    case '${step}':
      return <${screen} {...props} texts={texts} />;
    default:
      throw new MissingStepScreenError(props.stepId);
  }
}

/** What registry.views.ts loads, by this name in every workflow. */
export const screens: WorkflowScreens = { view: ${pascal}Step };
`;
}

export function stepScreenFile({ pascal, step }: WorkflowNames): string {
  return `import { useRef, useState, type FormEvent } from 'react';
import { Button, Choice, ChoiceGroup, FocusHeading, useShellTexts, InputField, invalidFields, type StepViewProps } from '@partner-task-kit/page/screens';
import { contactTimes, ${step}DataSchema, type ContactTime } from './definition';
import type { ${pascal}Texts } from './texts';

/** A number typed and a time chosen. The only step, so saving it completes the task (the server sends \`completed\`). */
export function ${stepPascal(step)}Step({ texts, headingId, focusHeading, saving, savedData, onSubmit }: StepViewProps & { texts: ${pascal}Texts }) {
  const savingText = useShellTexts().saving;
  const saved = ${step}DataSchema.safeParse(savedData);
  const [phone, setPhone] = useState(saved.success ? saved.data.phone : '');
  const [contactTime, setContactTime] = useState<ContactTime | undefined>(saved.success ? saved.data.contactTime : undefined);
  const [tried, setTried] = useState(false);
  const phoneInput = useRef<HTMLInputElement>(null);

  // Checked with the schema the server applies: what is not answered yet is left out, and the schema names it.
  const data = { phone: phone.trim(), ...(contactTime === undefined ? {} : { contactTime }) };
  const invalid = invalidFields(${step}DataSchema, data);
  const shows = (field: string) => tried && invalid.has(field);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    // Focus goes to the first field in error, in screen order: its message is read out with it.
    if (invalid.has('phone')) return phoneInput.current?.focus();
    if (invalid.has('contactTime')) return document.getElementById(\`${step}-time-\${contactTimes[0]}\`)?.focus();
    onSubmit(data);
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.${step}}
      </FocusHeading>
      <p>{texts.${step}.intro}</p>
      <form onSubmit={submit} noValidate>
        <InputField
          ref={phoneInput}
          id="${step}-phone"
          type="tel"
          autoComplete="tel"
          label={texts.${step}.phoneLabel}
          hint={texts.${step}.phoneHint}
          error={shows('phone') && texts.${step}.phoneError}
          value={phone}
          onChange={(event) => setPhone(event.target.value)}
        />
        <ChoiceGroup id="${step}-time" legend={texts.${step}.timeLegend} error={shows('contactTime') && texts.${step}.timeError}>
          {contactTimes.map((time) => (
            <Choice
              key={time}
              id={\`${step}-time-\${time}\`}
              type="radio"
              name="${step}-time"
              label={texts.${step}.times[time]}
              checked={contactTime === time}
              onChange={() => setContactTime(time)}
            />
          ))}
        </ChoiceGroup>
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.${step}.submit}
        </Button>
      </form>
    </section>
  );
}
`;
}

export function unitTestFile({ id, camel, pascal, step }: WorkflowNames): string {
  return `import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { locales, type Locale, MissingStepScreenError } from '@partner-task-kit/page/screens';
import { findWorkflow, listWorkflows } from '../../src/workflows/registry';
import { ${step}DataSchema, ${camel}Workflow } from '../../src/workflows/${id}/definition';
import { ${pascal}Step } from '../../src/workflows/${id}/${id}-step';
import { readyTaskView } from '@partner-task-kit/testing';

const answers = { phone: '+34 600 123 456', contactTime: 'evening' };

/** The field each issue names, as the server's 400 invalid_step_data names \`data.<field>\`. */
function problems(data: unknown): string[] {
  return (${step}DataSchema.safeParse(data).error?.issues ?? []).map((issue) => issue.path.join('.'));
}

describe('the ${id} workflow: its ${step} step', () => {
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

describe('the ${id} workflow in the registry and on screen', () => {
  it('is registered under its id, so the server runs it and the preview offers it', () => {
    expect(findWorkflow('${id}')?.definition).toBe(${camel}Workflow);
    expect(listWorkflows()).toContain(${camel}Workflow);
  });

  const render = (stepId: string, locale: Locale) =>
    renderToStaticMarkup(
      createElement(${pascal}Step, {
        task: { ...readyTaskView, workflow: { id: '${id}', estimatedMinutes: 2, steps: [{ id: stepId }] }, currentStep: stepId },
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

  it.each(locales)('renders every step in %s, each input with its label', (locale) => {
    for (const { id: stepId } of ${camel}Workflow.steps) {
      const html = render(stepId, locale);
      expect(html).toContain('<h1 id="step-title"');
      const inputs = [...html.matchAll(/<(?:input|textarea|select)\\b[^>]*\\bid="([^"]+)"/g)].map((match) => match[1]);
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) expect(html, \`the label of #\${input}\`).toContain(\`for="\${input}"\`);
    }
  });

  it('throws MissingStepScreenError for a step it has no screen for, which the runner shows as such', () => {
    expect(() => render('not-a-step', 'en')).toThrow(MissingStepScreenError);
  });
});
`;
}

/*
 * `--branch`: the workflow starts with a choice whose answer picks the next step (`next`, src/workflows/README.md#branches):
 * the worker asks to be called (the contact step above) or written to (an email step), and either step ends the task.
 */

/** The ids of the branch's two other steps, kept apart from the step switch's file name `<id>-step.tsx`. */
export function branchSteps({ id }: WorkflowNames): { choice: string; email: string } {
  return { choice: id === 'channel' ? 'reach' : 'channel', email: id === 'email' ? 'mail' : 'email' };
}

export function branchDefinitionFile(names: WorkflowNames): string {
  const { id, camel, pascal, title, step } = names;
  const { choice, email } = branchSteps(names);
  return `import { z } from 'zod/mini';
import { stepsOf, type WorkflowDefinition } from '@partner-task-kit/workflow';

/**
 * ${title}: made by \`npm run new-workflow -- --branch\`. The first answer picks the path: a call back (the ${step} step) or
 * an email (the ${email} step); either ends the task. Replace the steps by your own (src/workflows/README.md says how).
 * Imported by the page and by the server, so nothing here may be secret.
 */
const WORKFLOW_ID = '${id}';

export const channels = ['phone', 'email'] as const;
export type Channel = (typeof channels)[number];

export const contactTimes = ['morning', 'afternoon', 'evening'] as const;
export type ContactTime = (typeof contactTimes)[number];

export const ${camel}Schemas = {
  '${choice}': z.strictObject({ channel: z.enum(channels, { error: 'choose phone or email' }) }),
  '${step}': z.strictObject({
    // How people write a number: digits, spaces, brackets and hyphens, + before a country code.
    phone: z.string().check(z.trim(), z.regex(/^\\+?[0-9][0-9 ()-]{5,22}$/, 'must be a phone number of 6 to 23 digits, spaces, brackets or hyphens')),
    contactTime: z.enum(contactTimes, { error: 'choose morning, afternoon or evening' }),
  }),
  '${email}': z.strictObject({
    email: z.string().check(z.trim(), z.maxLength(254), z.regex(/^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/, 'must be an email address')),
  }),
};

/** The ids of the steps below: each has a screen and texts in this folder. */
export type ${pascal}StepId = keyof typeof ${camel}Schemas;

// Typed from the schemas: a \`next\` naming no step, or a condition reading an answer as another type, fails tsc.
const step = stepsOf(${camel}Schemas);

export const ${camel}Workflow: WorkflowDefinition<typeof WORKFLOW_ID> = {
  id: WORKFLOW_ID,
  title: '${title}',
  estimatedMinutes: 2,
  steps: [
    step('${choice}', {
      shortName: 'Channel',
      // Candidates in order: the first whose condition holds on the answers so far is the next step.
      next: { '${step}': (answers) => answers['${choice}']?.channel === 'phone', '${email}': () => true },
      report: (data) => ({ color: 'neutral', details: \`The worker chose to be reached by \${data.channel}.\` }),
    }),
    step('${step}', {
      shortName: '${stepPascal(step)}',
      next: null,
      // English, for the admin's task panel. The number is the worker's own: it stays with the partner, out of the panel.
      report: (data) => ({ color: 'success', details: \`Contact details saved: best reached in the \${data.contactTime}.\` }),
    }),
    step('${email}', {
      shortName: 'Email',
      report: () => ({ color: 'success', details: 'Email address saved.' }),
    }),
  ],
};
`;
}

const branchTexts = {
  en: {
    choice: {
      title: 'How should we reach you?',
      legend: 'Choose one',
      channels: { phone: 'By phone', email: 'By email' },
      error: 'Choose phone or email.',
      submit: 'Continue',
    },
    email: { title: 'Your email address', label: 'Email address', error: 'Enter an email address, like name@example.com.', submit: 'Send' },
  },
  es: {
    choice: {
      title: '¿Cómo te contactamos?',
      legend: 'Elige una opción',
      channels: { phone: 'Por teléfono', email: 'Por correo electrónico' },
      error: 'Elige teléfono o correo electrónico.',
      submit: 'Continuar',
    },
    email: {
      title: 'Tu correo electrónico',
      label: 'Correo electrónico',
      error: 'Indica un correo electrónico, como nombre@ejemplo.com.',
      submit: 'Enviar',
    },
  },
};

export function branchTextsTypeFile(names: WorkflowNames): string {
  const { choice, email } = branchSteps(names);
  return textsTypeFile(names)
    .replace('import type { ContactTime,', 'import type { Channel, ContactTime,')
    .replace(
      /\n}\n$/,
      `
  ${JSON.stringify(choice)}: { legend: string; channels: Record<Channel, string>; error: string; submit: string };
  ${JSON.stringify(email)}: { label: string; error: string; submit: string };
}
`,
    );
}

export function branchTextsFile(names: WorkflowNames, locale: 'en' | 'es'): string {
  const { camel, pascal, step } = names;
  const { choice, email } = branchSteps(names);
  const { title, ...stepTexts } = texts[locale];
  const { choice: choiceTexts, email: emailTexts } = branchTexts[locale];
  const { title: choiceTitle, ...choiceRest } = choiceTexts;
  const { title: emailTitle, ...emailRest } = emailTexts;
  const all = {
    stepTitles: { [choice]: choiceTitle, [step]: title, [email]: emailTitle },
    [step]: stepTexts,
    [choice]: choiceRest,
    [email]: emailRest,
  };
  const suffix = locale === 'en' ? 'En' : 'Es';
  return `import type { ${pascal}Texts } from './texts';

export const ${camel}Texts${suffix}: ${pascal}Texts = ${JSON.stringify(all, null, 2)};
`;
}

export function branchStepSwitchFile(names: WorkflowNames): string {
  const { step } = names;
  const { choice, email } = branchSteps(names);
  const screen = (id: string) => `${stepPascal(id)}Step`;
  return stepSwitchFile(names)
    .replace(
      `import { ${screen(step)} } from './${step}-step';`,
      [choice, step, email]
        .sort()
        .map((id) => `import { ${screen(id)} } from './${id}-step';`)
        .join('\n'),
    )
    .replace(
      `    case '${step}':`,
      `    case '${choice}':
      return <${screen(choice)} {...props} texts={texts} />;
    case '${email}':
      return <${screen(email)} {...props} texts={texts} />;
    case '${step}':`,
    );
}

/** The contact screen of a branch: its data schema is one of the workflow's schemas. */
export function branchContactScreenFile(names: WorkflowNames): string {
  const { camel, step } = names;
  return stepScreenFile(names)
    .replace(
      `import { contactTimes, ${step}DataSchema, type ContactTime } from './definition';`,
      `import { ${camel}Schemas, contactTimes, type ContactTime } from './definition';`,
    )
    .replace(
      '/** A number typed and a time chosen. The only step, so saving it completes the task (the server sends `completed`). */',
      `const ${step}DataSchema = ${camel}Schemas['${step}'];

/** A number typed and a time chosen. The last step of its branch, so saving it completes the task. */`,
    );
}

export function choiceScreenFile(names: WorkflowNames): string {
  const { camel, pascal } = names;
  const { choice } = branchSteps(names);
  return `import { useRef, useState, type FormEvent } from 'react';
import { Button, Choice, ChoiceGroup, FocusHeading, useShellTexts, type StepViewProps } from '@partner-task-kit/page/screens';
import { ${camel}Schemas, channels, type Channel } from './definition';
import type { ${pascal}Texts } from './texts';

const schema = ${camel}Schemas['${choice}'];

/** The answer picks the next step (definition.ts \`next\`): the server decides it, the page shows where it went. */
export function ${stepPascal(choice)}Step({ texts, headingId, focusHeading, saving, savedData, onSubmit }: StepViewProps & { texts: ${pascal}Texts }) {
  const savingText = useShellTexts().saving;
  const saved = schema.safeParse(savedData);
  // After "Back" the saved answer is shown again, to change.
  const [channel, setChannel] = useState<Channel | undefined>(saved.success ? saved.data.channel : undefined);
  const [tried, setTried] = useState(false);
  const firstChoice = useRef<HTMLInputElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (channel === undefined) return firstChoice.current?.focus();
    onSubmit({ channel });
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles['${choice}']}
      </FocusHeading>
      <form onSubmit={submit} noValidate>
        <ChoiceGroup id="${choice}" legend={texts['${choice}'].legend} error={tried && channel === undefined && texts['${choice}'].error}>
          {channels.map((each, index) => (
            <Choice
              key={each}
              ref={index === 0 ? firstChoice : undefined}
              id={\`${choice}-\${each}\`}
              type="radio"
              name="${choice}"
              label={texts['${choice}'].channels[each]}
              checked={channel === each}
              onChange={() => setChannel(each)}
            />
          ))}
        </ChoiceGroup>
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts['${choice}'].submit}
        </Button>
      </form>
    </section>
  );
}
`;
}

export function emailScreenFile(names: WorkflowNames): string {
  const { camel, pascal } = names;
  const { email } = branchSteps(names);
  return `import { useRef, useState, type FormEvent } from 'react';
import { Button, FocusHeading, useShellTexts, InputField, invalidFields, refused, type StepViewProps } from '@partner-task-kit/page/screens';
import { ${camel}Schemas } from './definition';
import type { ${pascal}Texts } from './texts';

const schema = ${camel}Schemas['${email}'];

/** The other branch: an email address. The last step of its branch, so saving it completes the task. */
export function ${stepPascal(email)}Step({ texts, headingId, focusHeading, saving, savedData, refusal, onSubmit }: StepViewProps & { texts: ${pascal}Texts }) {
  const savingText = useShellTexts().saving;
  const saved = schema.safeParse(savedData);
  const [email, setEmail] = useState(saved.success ? saved.data.email : '');
  const [tried, setTried] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const data = { email: email.trim() };
  const invalid = invalidFields(schema, data).has('email');
  // The server's refusal (400 invalid_step_data naming data.email) shows on the input as the page's own check does.
  const shows = (tried && invalid) || refused(refusal, 'email');

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (invalid) return input.current?.focus();
    onSubmit(data);
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles['${email}']}
      </FocusHeading>
      <form onSubmit={submit} noValidate>
        <InputField
          ref={input}
          id="${email}-address"
          type="email"
          autoComplete="email"
          label={texts['${email}'].label}
          error={shows && texts['${email}'].error}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts['${email}'].submit}
        </Button>
      </form>
    </section>
  );
}
`;
}

export function branchUnitTestFile(names: WorkflowNames): string {
  const { id, camel, pascal, step } = names;
  const { choice, email } = branchSteps(names);
  return `import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { locales, type Locale, MissingStepScreenError } from '@partner-task-kit/page/screens';
import { findWorkflow, listWorkflows } from '../../src/workflows/registry';
import { ${camel}Schemas, ${camel}Workflow } from '../../src/workflows/${id}/definition';
import { ${pascal}Step } from '../../src/workflows/${id}/${id}-step';
import { answeredPath, longestPathOf, workflowProblems } from '@partner-task-kit/workflow';
import { readyTaskView } from '@partner-task-kit/testing';

const path = (answers: Record<string, unknown>) => answeredPath(${camel}Workflow, answers).steps.map((step) => step.id);

describe('the ${id} workflow: its path', () => {
  it('is a graph the engine runs: every step reachable, no loop, an end', () => {
    expect(workflowProblems(${camel}Workflow)).toEqual([]);
    expect(longestPathOf(${camel}Workflow)).toBe(2);
  });

  it('goes to the ${step} step for a call and to the ${email} step for an email, and ends after either', () => {
    expect(path({ '${choice}': { channel: 'phone' } })).toEqual(['${choice}', '${step}']);
    expect(path({ '${choice}': { channel: 'email' } })).toEqual(['${choice}', '${email}']);
    const called = { '${choice}': { channel: 'phone' }, '${step}': { phone: '+34 600 123 456', contactTime: 'evening' } };
    expect(answeredPath(${camel}Workflow, called).ends).toBe(true);
  });

  it('takes what each step asks, and refuses the rest', () => {
    expect(${camel}Schemas['${choice}'].safeParse({ channel: 'post' }).success).toBe(false);
    expect(${camel}Schemas['${email}'].safeParse({ email: 'ana@example.com' }).success).toBe(true);
    expect(${camel}Schemas['${email}'].safeParse({ email: 'ana' }).success).toBe(false);
  });
});

describe('the ${id} workflow in the registry and on screen', () => {
  it('is registered under its id, so the server runs it and the preview offers it', () => {
    expect(findWorkflow('${id}')?.definition).toBe(${camel}Workflow);
    expect(listWorkflows()).toContain(${camel}Workflow);
  });

  const render = (stepId: string, locale: Locale) =>
    renderToStaticMarkup(
      createElement(${pascal}Step, {
        task: { ...readyTaskView, workflow: { id: '${id}', estimatedMinutes: 2, steps: [{ id: stepId }] }, currentStep: stepId },
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

  it.each(locales)('renders every step in %s, each input with its label', (locale) => {
    for (const { id: stepId } of ${camel}Workflow.steps) {
      const html = render(stepId, locale);
      expect(html).toContain('<h1 id="step-title"');
      const inputs = [...html.matchAll(/<(?:input|textarea|select)\\b[^>]*\\bid="([^"]+)"/g)].map((match) => match[1]);
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) expect(html, \`the label of #\${input}\`).toContain(\`for="\${input}"\`);
    }
  });

  it('throws MissingStepScreenError for a step it has no screen for, which the runner shows as such', () => {
    expect(() => render('not-a-step', 'en')).toThrow(MissingStepScreenError);
  });
});
`;
}
