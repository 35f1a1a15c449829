import { screenName, stepIds, type WorkflowNames } from './new-workflow-names.ts';

/**
 * The folder `npm run new-workflow -- <id>` writes: a workflow of one step (a phone number typed into an InputField and
 * when to call chosen in a ChoiceGroup), made to pass `partner-task-kit check`, `tsc -b`, `npm run lint` and its test
 * as it is, so that a partner starts from green and replaces the step with their own (src/workflows/README.md).
 * Formatted by prettier when written: the layout here need not be exact.
 */
const step = stepIds.contact;

export function definitionFile({ id, camel, pascal, title }: WorkflowNames): string {
  return `import { z } from 'zod/mini';
import { defineStep, type WorkflowDefinition } from '@partner-task-kit/workflow';

/**
 * ${title}: made by \`npm run new-workflow\` with one step to replace by your own (src/workflows/README.md says how).
 * Imported by the page and by the server, so nothing here may be secret.
 */
export const contactTimes = ['morning', 'afternoon', 'evening'] as const;
export type ContactTime = (typeof contactTimes)[number];

export const ${step}DataSchema = z.strictObject({
  // How people write a number: digits, spaces, brackets and hyphens, + before a country code.
  phone: z.string().check(z.trim(), z.regex(/^\\+?[0-9][0-9 ()-]{5,22}$/, 'must be a phone number of 6 to 23 digits, spaces, brackets or hyphens')),
  contactTime: z.enum(contactTimes, { error: 'choose morning, afternoon or evening' }),
});

/** The ids of the steps below: each has its screen in steps/ and its texts in texts.<locale>.ts. */
export type ${pascal}StepId = '${step}';

// The id is the folder's name: the folder is what makes it a workflow of the app (src/workflows/README.md).
const ${camel}Workflow: WorkflowDefinition<'${id}'> = {
  id: '${id}',
  title: '${title}',
  estimatedMinutes: 2,
  steps: [
    defineStep({
      id: '${step}',
      shortName: '${screenName(step)}',
      schema: ${step}DataSchema,
      // English, for the admin's task panel. The number is the worker's own: it stays with the partner, out of the panel.
      report: (data) => ({ color: 'success', details: \`Contact details saved: best reached in the \${data.contactTime}.\` }),
    }),
  ],
};

export default ${camel}Workflow;
`;
}

/** The type of the texts, which each language's file satisfies; `extra` adds the fields of more steps. */
export function textsTypeFile({ pascal }: WorkflowNames, extra?: { imports: string; fields: string }): string {
  return `import type { ${extra?.imports ?? ''}ContactTime, ${pascal}StepId } from './definition';

/** Every text the worker sees in this workflow; one file per language, texts.<locale>.ts. */
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
  };${extra?.fields ?? ''}
}
`;
}

export const contactTexts = {
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

export type TextsLocale = keyof typeof contactTexts;

/** One language's texts file, `texts` being every field of the type. */
export function textsFileOf({ pascal }: WorkflowNames, texts: object): string {
  return `import type { ${pascal}Texts } from './texts';

export default ${JSON.stringify(texts, null, 2)} satisfies ${pascal}Texts;
`;
}

export function textsFile(names: WorkflowNames, locale: TextsLocale): string {
  const { title, ...stepTexts } = contactTexts[locale];
  return textsFileOf(names, { stepTitles: { [step]: title }, [step]: stepTexts });
}

/** The contact step's screen; `schema` is how it names its data's schema (an import of definition.ts, then its own lines). */
export function contactScreenFile(
  { pascal }: WorkflowNames,
  schema = { imports: `contactTimes, ${step}DataSchema, type ContactTime`, lines: '' },
  summary = 'The only step, so saving it completes the task (the server sends `completed`).',
): string {
  return `import { useRef, useState, type FormEvent } from 'react';
import { Button, Choice, ChoiceGroup, FocusHeading, useShellTexts, InputField, invalidFields, type StepScreenProps } from '@partner-task-kit/page/screens';
import { ${schema.imports} } from '../definition';
import type { ${pascal}Texts } from '../texts';
${schema.lines}
/** A number typed and a time chosen. ${summary} */
export default function ${screenName(step)}({ texts, headingId, focusHeading, saving, savedData, onSubmit }: StepScreenProps<${pascal}Texts>) {
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
