import { contactScreenFile, contactTexts, textsFileOf, textsTypeFile, type TextsLocale } from './new-workflow-form.ts';
import { screenName, stepIds, type WorkflowNames } from './new-workflow-names.ts';

/*
 * `npm run new-workflow -- <id> --branch`: the workflow starts with a choice whose answer picks the next step (`next`,
 * src/workflows/README.md#branches): the worker asks to be called (the contact step of new-workflow-form.ts) or written
 * to (an email step), and either step ends the task.
 */
const { channel, contact, email } = stepIds;

export function branchDefinitionFile({ id, camel, pascal, title }: WorkflowNames): string {
  return `import { z } from 'zod/mini';
import { stepsOf, type WorkflowDefinition } from '@partner-task-kit/workflow';

/**
 * ${title}: made by \`npm run new-workflow -- --branch\`. The first answer picks the path: a call back (the ${contact} step) or
 * an email (the ${email} step); either ends the task. Replace the steps by your own (src/workflows/README.md says how).
 * Imported by the page and by the server, so nothing here may be secret.
 */
export const channels = ['phone', 'email'] as const;
export type Channel = (typeof channels)[number];

export const contactTimes = ['morning', 'afternoon', 'evening'] as const;
export type ContactTime = (typeof contactTimes)[number];

export const ${camel}Schemas = {
  ${channel}: z.strictObject({ channel: z.enum(channels, { error: 'choose phone or email' }) }),
  ${contact}: z.strictObject({
    // How people write a number: digits, spaces, brackets and hyphens, + before a country code.
    phone: z.string().check(z.trim(), z.regex(/^\\+?[0-9][0-9 ()-]{5,22}$/, 'must be a phone number of 6 to 23 digits, spaces, brackets or hyphens')),
    contactTime: z.enum(contactTimes, { error: 'choose morning, afternoon or evening' }),
  }),
  ${email}: z.strictObject({
    email: z.string().check(z.trim(), z.maxLength(254), z.regex(/^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/, 'must be an email address')),
  }),
};

/** The ids of the steps below: each has its screen in steps/ and its texts in texts.<locale>.ts. */
export type ${pascal}StepId = keyof typeof ${camel}Schemas;

// Typed from the schemas: a \`next\` naming no step, or a condition reading an answer as another type, fails tsc.
const step = stepsOf(${camel}Schemas);

// The id is the folder's name: the folder is what makes it a workflow of the app (src/workflows/README.md).
const ${camel}Workflow: WorkflowDefinition<'${id}'> = {
  id: '${id}',
  title: '${title}',
  estimatedMinutes: 2,
  steps: [
    step('${channel}', {
      shortName: 'Channel',
      // Candidates in order: the first whose condition holds on the answers so far is the next step.
      next: { ${contact}: (answers) => answers['${channel}']?.channel === 'phone', ${email}: () => true },
      report: (data) => ({ color: 'neutral', details: \`The worker chose to be reached by \${data.channel}.\` }),
    }),
    step('${contact}', {
      shortName: '${screenName(contact)}',
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

export default ${camel}Workflow;
`;
}

const branchTexts = {
  en: {
    channel: {
      title: 'How should we reach you?',
      legend: 'Choose one',
      channels: { phone: 'By phone', email: 'By email' },
      error: 'Choose phone or email.',
      submit: 'Continue',
    },
    email: { title: 'Your email address', label: 'Email address', error: 'Enter an email address, like name@example.com.', submit: 'Send' },
  },
  es: {
    channel: {
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
  return textsTypeFile(names, {
    imports: 'Channel, ',
    fields: `
  ${channel}: { legend: string; channels: Record<Channel, string>; error: string; submit: string };
  ${email}: { label: string; error: string; submit: string };`,
  });
}

export function branchTextsFile(names: WorkflowNames, locale: TextsLocale): string {
  const { title, ...contactRest } = contactTexts[locale];
  const { title: channelTitle, ...channelRest } = branchTexts[locale].channel;
  const { title: emailTitle, ...emailRest } = branchTexts[locale].email;
  return textsFileOf(names, {
    stepTitles: { [channel]: channelTitle, [contact]: title, [email]: emailTitle },
    [contact]: contactRest,
    [channel]: channelRest,
    [email]: emailRest,
  });
}

/** The contact screen of a branch: its data's schema is one of the workflow's schemas. */
export function branchContactScreenFile(names: WorkflowNames): string {
  return contactScreenFile(
    names,
    {
      imports: `${names.camel}Schemas, contactTimes, type ContactTime`,
      lines: `\nconst ${contact}DataSchema = ${names.camel}Schemas.${contact};\n`,
    },
    'The last step of its branch, so saving it completes the task.',
  );
}

export function channelScreenFile({ camel, pascal }: WorkflowNames): string {
  return `import { useRef, useState, type FormEvent } from 'react';
import { Button, Choice, ChoiceGroup, FocusHeading, useShellTexts, type StepScreenProps } from '@partner-task-kit/page/screens';
import { ${camel}Schemas, channels, type Channel } from '../definition';
import type { ${pascal}Texts } from '../texts';

const schema = ${camel}Schemas.${channel};

/** The answer picks the next step (definition.ts \`next\`): the server decides it, the page shows where it went. */
export default function ${screenName(channel)}({ texts, headingId, focusHeading, saving, savedData, onSubmit }: StepScreenProps<${pascal}Texts>) {
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
        {texts.stepTitles.${channel}}
      </FocusHeading>
      <form onSubmit={submit} noValidate>
        <ChoiceGroup id="${channel}" legend={texts.${channel}.legend} error={tried && channel === undefined && texts.${channel}.error}>
          {channels.map((each, index) => (
            <Choice
              key={each}
              ref={index === 0 ? firstChoice : undefined}
              id={\`${channel}-\${each}\`}
              type="radio"
              name="${channel}"
              label={texts.${channel}.channels[each]}
              checked={channel === each}
              onChange={() => setChannel(each)}
            />
          ))}
        </ChoiceGroup>
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.${channel}.submit}
        </Button>
      </form>
    </section>
  );
}
`;
}

export function emailScreenFile({ camel, pascal }: WorkflowNames): string {
  return `import { useRef, useState, type FormEvent } from 'react';
import { Button, FocusHeading, useShellTexts, InputField, invalidFields, refused, type StepScreenProps } from '@partner-task-kit/page/screens';
import { ${camel}Schemas } from '../definition';
import type { ${pascal}Texts } from '../texts';

const schema = ${camel}Schemas.${email};

/** The other branch: an email address. The last step of its branch, so saving it completes the task. */
export default function ${screenName(email)}({ texts, headingId, focusHeading, saving, savedData, refusal, onSubmit }: StepScreenProps<${pascal}Texts>) {
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
        {texts.stepTitles.${email}}
      </FocusHeading>
      <form onSubmit={submit} noValidate>
        <InputField
          ref={input}
          id="${email}-address"
          type="email"
          autoComplete="email"
          label={texts.${email}.label}
          error={shows && texts.${email}.error}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button type="submit" busy={saving} busyText={savingText}>
          {texts.${email}.submit}
        </Button>
      </form>
    </section>
  );
}
`;
}
