import type { PartnerTaskUpdate } from '@partner-task-kit/workflow/contract';
import { isClosed, type TaskStatus } from '@partner-task-kit/workflow/contract';

/**
 * The emulated platform's task state, and every rule of docs/platform.md#statuses-and-transitions that moves it, in one place: the states, the review
 * (required, pending, approved, rejected, reset), which portal and admin actions are allowed when, and the order of
 * sentAt values that decides whether an update is applied or ignored as obsolete. No HTTP here.
 */

/** docs/platform.md#statuses-and-transitions names `viewed` in the review-reset rule; the emulator accepts it only under `acceptViewed`. */
export type EmulatorTaskStatus = TaskStatus | 'viewed';

/** A docs/platform.md#partner-task-update-record record as received: the shared schema, widened by `viewed` when that setting is on. */
export type ReceivedUpdate = Omit<PartnerTaskUpdate, 'taskStatus'> & { taskStatus: EmulatorTaskStatus };

/** docs/platform.md#task-context: the four task context values appended to the iframe URL. */
export interface AssignmentContext {
  workerUuid: string;
  assignedTaskUuid: string;
  taskFlowUuid: string;
  companyUuid: string;
}

/** docs/platform.md#partner-task-configuration: the partner task configuration set when a flow is created. */
export interface AssignmentOptions {
  title: string;
  /** docs/platform.md#partner-task-configuration: a duration whose format is not stated, so it is kept as free text. */
  estimatedCompletionTime?: string;
  iframeUrl: string;
  endEvent?: string;
  appendTaskContext: boolean;
  hideTaskCompletedButton: boolean;
  requireReview: boolean;
}

type ReviewState = 'none' | 'pending' | 'approved' | 'rejected';

export interface Review {
  required: boolean;
  state: ReviewState;
  /** ISO time of the admin decision, present when the state is approved or rejected. */
  decidedAt?: string;
}

const adminActions = ['approve', 'reject', 'reset'] as const;
const portalActions = ['complete', 'start'] as const;
export const taskActions = [...adminActions, ...portalActions] as const;
export type TaskAction = (typeof taskActions)[number];

/**
 * What became of a partner update: applied, ignored as obsolete (docs/platform.md#statuses-and-transitions and docs/platform.md#the-update-endpoint), or ignored as a duplicate
 * (an emulator choice, see AssignedTask.applyPartnerUpdate).
 */
export type PartnerOutcome = 'applied' | 'obsolete' | 'duplicate';

export type TrailEntry =
  | { kind: 'partner'; at: string; record: ReceivedUpdate; outcome: PartnerOutcome }
  | { kind: 'admin' | 'portal'; at: string; action: TaskAction };

export interface AppliedUpdate {
  record: ReceivedUpdate;
  receivedAt: string;
}

/** How the assignment came to exist: made through the control API, or on the fly by a partner update. */
export type AssignmentOrigin = 'control' | 'partnerUpdate';

/** The JSON view of an assigned task, as the control API returns it. */
export interface AssignmentView extends AssignmentContext {
  options: AssignmentOptions;
  launchUrl: string;
  origin: AssignmentOrigin;
  createdAt: string;
  updatedAt: string;
  status: EmulatorTaskStatus;
  review: Review;
  workerActed: boolean;
  latest: AppliedUpdate | null;
  trail: TrailEntry[];
  /** Trail entries dropped from the front once the per-task trail limit was reached. */
  trailDropped: number;
}

export type ActionResult = { ok: true } | { ok: false; reason: string };

/**
 * The review after a task moves to `status` (by a partner update or the portal's "Task Completed" button).
 * - completed with review required: the task awaits admin approval (docs/platform.md#statuses-and-transitions, completed). A review already decided
 *   stays as it is: docs/platform.md#statuses-and-transitions clears a review only on ready, viewed or inProgress.
 * - ready, viewed or inProgress: docs/platform.md#statuses-and-transitions and docs/platform.md#the-update-endpoint, earlier review information is reset, so an admin must review
 *   again after the next completion. A pending review is cleared too: the task no longer awaits approval.
 * - error: not shown by the spec. A pending review is dropped (the task left completed); a decided one is kept.
 */
export function reviewAfterStatus(review: Review, status: EmulatorTaskStatus): Review {
  switch (status) {
    case 'completed':
      return review.required && review.state === 'none' ? { required: true, state: 'pending' } : review;
    case 'ready':
    case 'viewed':
    case 'inProgress':
      return review.state === 'none' ? review : { required: review.required, state: 'none' };
    case 'error':
      return review.state === 'pending' ? { required: review.required, state: 'none' } : review;
  }
}

interface TaskFacts {
  status: EmulatorTaskStatus;
  review: Review;
  workerActed: boolean;
  options: AssignmentOptions;
}

/** Why `action` is not allowed now, or undefined when it is. Each message names the rule it comes from. */
export function refusalOf(task: TaskFacts, action: TaskAction): string | undefined {
  switch (action) {
    case 'start':
      // docs/platform.md#statuses-and-transitions: ready -> inProgress when the worker starts interacting with the task.
      return task.status === 'ready' || task.status === 'viewed'
        ? undefined
        : `start moves a ready task to inProgress (spec 3); this task is ${task.status}`;
    case 'complete':
      if (task.options.hideTaskCompletedButton) return 'the "Task Completed" button is hidden for this task (spec 2.4)';
      return isClosed(task.status) ? `the "Task Completed" button cannot complete a task that is ${task.status}` : undefined;
    case 'approve':
    case 'reject':
      // docs/platform.md#statuses-and-transitions: approve and reject apply to a completed task whose review is required (and not yet decided).
      if (task.status !== 'completed') return `${action} needs a completed task (spec 3); this task is ${task.status}`;
      return task.review.state === 'pending'
        ? undefined
        : task.review.required
          ? `${action} needs a review pending; the review is ${task.review.state}`
          : `${action} needs a task that requires review (spec 2.4); this one does not`;
    case 'reset':
      // docs/platform.md#statuses-and-transitions: an admin reset applies to "any state in which the worker initiated actions".
      return task.workerActed
        ? undefined
        : 'reset needs a task in which the worker has acted (spec 3); nothing happened since it was created or reset';
  }
}

/**
 * An exact instant of an ISO 8601 date-time: whole seconds since the epoch plus the fractional digits as a string, so
 * two sentAt values are compared without losing sub-millisecond digits (docs/platform.md#partner-task-update-record does not limit the precision).
 */
export interface SentAtInstant {
  epochSeconds: number;
  fraction: string;
}

/**
 * docs/platform.md#partner-task-update-record asks for "an ISO 8601 date-time" and names no profile, so every ISO 8601 form is read: extended
 * (2026-11-22T10:00:00.5+01:00) and basic (20261122T100000,5+0100), seconds optional, the fraction after a dot or a
 * comma, `t`/`z` in either case, and a zone as Z, ±hh, ±hhmm or ±hh:mm. A local time without a zone designator is
 * refused: it names no instant the platform could order (docs/platform.md#statuses-and-transitions). Written here because date libraries round to milliseconds and this keeps every digit.
 */
const extendedForm = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/;
const basicForm = /^(\d{4})(\d{2})(\d{2})[Tt](\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?:\d{2})?)$/;

/** The instant an ISO 8601 date-time names, or undefined when the text is not one. */
export function parseSentAt(sentAt: string): SentAtInstant | undefined {
  const match = extendedForm.exec(sentAt) ?? basicForm.exec(sentAt);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone = ''] = match;
  const fields = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  const [y, mo, d, h, mi, se] = fields;
  const utc = Date.UTC(y, mo - 1, d, h, mi, se);
  const check = new Date(utc);
  // Date.UTC rolls 2026-02-30 over to March: a date that does not exist is not a date-time.
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) return undefined;
  const offsetMinutes = zone.toUpperCase() === 'Z' ? 0 : zoneMinutes(zone);
  if (offsetMinutes === undefined) return undefined;
  return { epochSeconds: utc / 1000 - offsetMinutes * 60, fraction: fraction.replace(/0+$/, '') };
}

function zoneMinutes(zone: string): number | undefined {
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** For a record that passed validation, where `parseSentAt` already accepted the text. */
export function sentAtInstant(sentAt: string): SentAtInstant {
  const instant = parseSentAt(sentAt);
  if (!instant) throw new Error(`sentAt ${JSON.stringify(sentAt)} is not an ISO 8601 date-time`);
  return instant;
}

/** Negative when a is older than b, zero when they are the same instant, positive when a is newer. */
export function compareSentAt(a: SentAtInstant, b: SentAtInstant): number {
  if (a.epochSeconds !== b.epochSeconds) return a.epochSeconds - b.epochSeconds;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, '0');
  const fb = b.fraction.padEnd(width, '0');
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}
