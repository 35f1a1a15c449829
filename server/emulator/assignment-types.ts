import type { PartnerTaskUpdate, TaskStatus } from '../../src/contract/partner-task-update';

/** spec 3 names `viewed` in the review-reset rule; the emulator accepts it only under `acceptViewed`. */
export type EmulatorTaskStatus = TaskStatus | 'viewed';

/** A spec 2.6 record as received: the shared schema, widened by `viewed` when that setting is on. */
export type ReceivedUpdate = Omit<PartnerTaskUpdate, 'taskStatus'> & { taskStatus: EmulatorTaskStatus };

/** spec 2.5: the four task context values appended to the iframe URL. */
export interface AssignmentContext {
  workerUuid: string;
  assignedTaskUuid: string;
  taskFlowUuid: string;
  companyUuid: string;
}

/** spec 2.4: the partner task configuration set when a flow is created. */
export interface AssignmentOptions {
  title: string;
  /** spec 2.4: a duration whose format is not stated, so it is kept as free text. */
  estimatedCompletionTime?: string;
  iframeUrl: string;
  endEvent?: string;
  appendTaskContext: boolean;
  hideTaskCompletedButton: boolean;
  requireReview: boolean;
}

export type ReviewState = 'none' | 'pending' | 'approved' | 'rejected';

export interface Review {
  required: boolean;
  state: ReviewState;
  /** ISO time of the admin decision, present when the state is approved or rejected. */
  decidedAt?: string;
}

export const adminActions = ['approve', 'reject', 'reset'] as const;
export const portalActions = ['complete', 'start'] as const;
export const taskActions = [...adminActions, ...portalActions] as const;
export type TaskAction = (typeof taskActions)[number];

/**
 * What became of a partner update: applied, ignored as obsolete (spec 3, 4.3 rule 4), or ignored as a duplicate
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
