/**
 * The names one workflow id gives the files `npm run new-workflow` writes: `sample-form` → `sampleForm`,
 * `SampleForm`, "Sample form". The folder alone registers the workflow (docs/architecture.md#a-workflow-is-a-folder),
 * so the steps' ids are fixed ones: no file name of the folder can clash with another.
 */
export interface WorkflowNames {
  id: string;
  /** Prefix of the workflow's identifiers: `sampleFormWorkflow`, `sampleFormSchemas`. */
  camel: string;
  /** Prefix of its types: `SampleFormTexts`, `SampleFormStepId`. */
  pascal: string;
  /** The preview's default title for an assignment of it: "Sample form". */
  title: string;
}

export function workflowNames(id: string): WorkflowNames {
  const words = id.split('-');
  const capitalized = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return {
    id,
    camel: words[0] + capitalized.slice(1).join(''),
    pascal: capitalized.join(''),
    title: [capitalized[0], ...words.slice(1)].join(' '),
  };
}

/** The steps' ids: the one-step workflow has `contact`; `--branch` puts `channel` before it and `email` beside it. */
export const stepIds = { contact: 'contact', channel: 'channel', email: 'email' } as const;

/** A step's screen component, named by its step: `contact` → `Contact`. */
export const screenName = (step: string) => step.charAt(0).toUpperCase() + step.slice(1);
