import type { z, ZodMiniType } from 'zod/mini';
import type { PartnerStatusColor } from './contract/partner-task-update.ts';
import type { LocalisedText } from './contract/worker-message.ts';

/** A graded step's outcome, computed on the server only (the answer key never reaches the browser). */
export interface Grade {
  score: number;
  total: number;
}

/** docs/platform.md#statuses-and-transitions: running out of attempts is the `error` state; the worker must restart or the task is abandoned. */
export interface GradingRules {
  passMark: number;
  maxAttempts: number;
}

/** What a step reports to the platform when it is saved (docs/platform.md#partner-task-update-record partnerStatus). The label is built by the engine. */
export interface StepReport {
  color: PartnerStatusColor;
  /** Free text for the admin's task panel: what just happened. */
  details: string;
  /** The result fails the task (a partner's check that did not pass): the attempt ends in `error`. */
  failed?: boolean;
}

/** The answers saved on the path so far, by step id (workflow-path.ts). */
export type Answers = Readonly<Record<string, unknown>>;

/**
 * Where the path goes after a step (workflow-path.ts): a step id, `null` for the end, or candidates tried in order,
 * the first whose condition holds on the answers so far. Absent: the next step in the list, or the end after the last.
 *
 * @public the workflow authoring API: a partner's own definitions may name it.
 */
export type NextStep<StepId extends string = string, StepAnswers = Answers> =
  StepId | null | { readonly [Id in StepId]?: (answers: StepAnswers) => boolean };

/** A field of a step's data that is wrong, and why, in the worker's terms: 400 invalid_step_data names it. */
export interface StepIssue {
  path: readonly (string | number)[];
  message: string;
}

/**
 * What a step's check sees besides its data: the earlier answers on the path, and today's date on the server (UTC).
 *
 * @public the workflow authoring API: a partner's own definitions may name it.
 */
export interface CheckContext<StepAnswers = Answers> {
  answers: StepAnswers;
  /** YYYY-MM-DD. */
  today: string;
}

/**
 * Data the server loads from the partner's backend when the step is reached, and the page shows: slots, prices, a
 * contract text (docs/connecting-your-backend.md#offers). Kept with the task; a change in the answers it depends on
 * loads a new one, and an empty one is asked again after `checkAgainAfterMs`.
 *
 * @public the workflow authoring API: a partner's own definitions may name it.
 */
export interface OfferDefinition<Data = unknown, Offer = unknown, StepAnswers = Answers> {
  schema: ZodMiniType<Offer>;
  /** The steps whose answers it depends on; absent: every earlier answer on the path. Sensitive answers are never sent. */
  dependsOn?: readonly string[];
  /** The worker's answer against the offer shown: an issue when it is not one of it. */
  check(data: Data, offer: Offer): StepIssue | undefined;
  /**
   * Nothing to choose from: the page says so, offers to go back, and the server asks again later. Absent: an offer
   * is empty when it is an empty array, or an object whose array-valued fields (one at least) all have no items
   * (offer-rules.ts).
   */
  isEmpty?(offer: Offer): boolean;
  /**
   * How long after an empty offer the server asks the partner's backend again, in ms: the page's "Check again" and a
   * reload wait this long (1 s to 24 h; default 60 s, offer-rules.ts).
   */
  checkAgainAfterMs?: number;
  /** An offer with nothing in it (empty by `isEmpty`): what the emulator's stand-in answers when the preview asks for none. */
  empty: Offer;
  /** What the emulator's stand-in of the partner's backend answers (the preview), from the answers and language sent. */
  sample(answers: StepAnswers, request: OfferRequestFacts): Offer;
}

/**
 * What an offer request says besides the answers (docs/connecting-your-backend.md#offers).
 *
 * @public the workflow authoring API: a partner's own definitions may name it.
 */
export interface OfferRequestFacts {
  /** The worker's language as the page speaks it (`en`, `es`), a BCP 47 tag; null when the page did not say. */
  locale: string | null;
}

/**
 * One step of a workflow, shared by the page and the server. Methods (not function properties) so that steps with
 * different data types fit in one list.
 */
export interface StepDefinition<Data = unknown> {
  id: string;
  /** The name in status labels, "Step 2 of 4 · Contact"; cut to fit 32 characters (docs/platform.md#limits) by `fitLabel`. */
  shortName: string;
  /** The data the worker submits; the server rejects anything else with 400 invalid_step_data. */
  schema: ZodMiniType<Data>;
  /** Present on steps graded by the server; the grader lives in the workflow's server module. */
  grading?: GradingRules;
  /**
   * Who completes the step: the worker on the page (the default), or the partner's own backend through the partner
   * API (docs/connecting-your-backend.md), hours later perhaps: the worker sees the step's waiting screen meanwhile.
   */
  completedBy?: 'worker' | 'partner';
  /** A partner step: what the platform's panel shows while the partner works (its colour and details). */
  awaiting?: StepReport;
  /**
   * A partner step: results the preview's "Partner backend" panel offers as buttons, each sent through the partner API
   * as your backend would send it. Only for the preview; the schema alone decides what the API accepts.
   */
  previewResults?: readonly { label: string; data: Data; workerMessage?: LocalisedText }[];
  /** A partner step: false when the worker may not start over while the partner works (default true). */
  restartWhileAwaiting?: boolean;
  /**
   * A partner step: what the worker is told to do once the partner's result fails it, under the partner's reason
   * (`workerMessage`) on the failure screen: "Call us on …", "Start again with another document". Absent: the page's
   * own words (start again from the beginning). A string, or one per language (`{ en: '…', es: '…' }`).
   */
  failedNextStep?: LocalisedText;
  /** Where the path goes after this step (NextStep). */
  next?: NextStep;
  /** Checks the data against the earlier answers (or today's date), on the server and on the page alike. */
  check?(data: Data, context: CheckContext): StepIssue | undefined;
  offer?: OfferDefinition<Data>;
  /** What the platform is told of the step (never a sensitive value: the data is masked first). */
  report(data: Data, grade: Grade | undefined): StepReport;
}

/**
 * `Id` is the workflow's own id as a literal type (`WorkflowDefinition<'sample-workflow'>`), so that the registry can
 * check that each definition sits under its own id; code that takes any workflow uses the default, `string`.
 */
export interface WorkflowDefinition<Id extends string = string> {
  id: Id;
  /**
   * What an admin would call the task in the platform (English, like the reports): the preview portal's default title
   * for a new assignment of this workflow. The worker sees the step titles of the workflow's texts, not this.
   */
  title: string;
  /** Shown on the welcome screen; matches the task's "estimated completion time" in the platform (docs/platform.md#partner-task-configuration). */
  estimatedMinutes: number;
  /** In order; the last step's success completes the task. */
  steps: readonly StepDefinition[];
}

/** Keeps each step's data type while listing it among the others. */
export function defineStep<Data>(step: StepDefinition<Data>): StepDefinition {
  return step as StepDefinition;
}

/**
 * Each step's answer, by id, typed from the steps' schemas; a step not answered yet is absent.
 *
 * @public the workflow authoring API: a partner's own definitions may name it.
 */
export type AnswersOf<Schemas extends Record<string, ZodMiniType>> = { readonly [Id in keyof Schemas]?: z.infer<Schemas[Id]> };

/** A step of `stepsOf`: its id and schema are given by the workflow's schemas, its `next` and `check` are typed by them. */
export type TypedStep<Schemas extends Record<string, ZodMiniType>, Id extends keyof Schemas & string, Offer> = Omit<
  StepDefinition<z.infer<Schemas[Id]>>,
  'id' | 'schema' | 'next' | 'check' | 'offer'
> & {
  next?: NextStep<keyof Schemas & string, AnswersOf<Schemas>>;
  check?(data: z.infer<Schemas[Id]>, context: CheckContext<AnswersOf<Schemas>>): StepIssue | undefined;
  offer?: OfferDefinition<z.infer<Schemas[Id]>, Offer, AnswersOf<Schemas>>;
};

/**
 * The steps of a workflow that branches, typed from its schemas: a `next` naming a step that does not exist, or a
 * condition reading an answer as another type, fails the type check.
 *
 *   const step = stepsOf({ citizenship: citizenshipSchema, 'national-id': nationalIdSchema, document: documentSchema });
 *   step('citizenship', { shortName: 'Citizenship', next: { 'national-id': (a) => a.citizenship?.citizen === true, document: () => true }, ... })
 */
export function stepsOf<const Schemas extends Record<string, ZodMiniType>>(schemas: Schemas) {
  return <Id extends keyof Schemas & string, Offer = never>(id: Id, step: TypedStep<Schemas, Id, Offer>): StepDefinition =>
    ({ ...step, id, schema: schemas[id] }) as unknown as StepDefinition;
}

/** The server-only half of a workflow (`definition.server.ts`): graders that hold the secrets. */
export interface WorkflowServerModule {
  graders: Record<string, (data: unknown) => Grade>;
}
