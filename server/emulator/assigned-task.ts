import type {
  ActionResult,
  AppliedUpdate,
  AssignmentContext,
  AssignmentOptions,
  AssignmentOrigin,
  AssignmentView,
  EmulatorTaskStatus,
  PartnerOutcome,
  ReceivedUpdate,
  Review,
  TaskAction,
  TrailEntry,
} from './assignment-types';
import { buildLaunchUrl } from './launch-url';
import { compareSentAt, sentAtInstant, type SentAtInstant } from './sent-at-order';
import { reviewAfterStatus, refusalOf } from './task-rules';

/** Per task, the audit trail keeps this many entries; older ones are dropped so a benchmark cannot exhaust memory. */
export const TRAIL_LIMIT = 1000;

/**
 * The state of one assigned task and the transitions of spec 3. No HTTP here: routes call these methods, and unit
 * tests can drive them directly. Times are epoch milliseconds from the emulator's clock.
 */
export class AssignedTask {
  status: EmulatorTaskStatus = 'ready'; // spec 3: ready is the initial state
  review: Review;
  /** spec 3: an admin reset is allowed "in any state in which the worker initiated actions". */
  workerActed = false;
  latest: AppliedUpdate | null = null;
  readonly trail: TrailEntry[] = [];
  trailDropped = 0;
  readonly launchUrl: string;
  readonly createdAt: string;
  updatedAt: string;
  private lastApplied: { instant: SentAtInstant; key: string } | null = null;

  constructor(
    readonly context: AssignmentContext,
    readonly options: AssignmentOptions,
    readonly origin: AssignmentOrigin,
    nowMs: number,
  ) {
    this.review = { required: options.requireReview, state: 'none' };
    this.launchUrl = buildLaunchUrl(options.iframeUrl, context, options.appendTaskContext);
    this.createdAt = new Date(nowMs).toISOString();
    this.updatedAt = this.createdAt;
  }

  /**
   * spec 3 and 4.3 rule 4: an update whose sentAt is not older than the last applied one sets the sent status (equal
   * counts as not older); an older one is ignored as obsolete. Emulator choice, not shown by the spec: a replay of the
   * exact record last applied (same sentAt, identical content) changes nothing and is recorded as `duplicate`, so
   * tests can see at-least-once redelivery.
   */
  applyPartnerUpdate(record: ReceivedUpdate, nowMs: number): PartnerOutcome {
    const at = new Date(nowMs).toISOString();
    const instant = sentAtInstant(record.sentAt);
    const key = canonicalKey(record);
    let outcome: PartnerOutcome = 'applied';
    if (this.lastApplied !== null) {
      const order = compareSentAt(instant, this.lastApplied.instant);
      if (order < 0) outcome = 'obsolete';
      else if (order === 0 && key === this.lastApplied.key) outcome = 'duplicate';
    }
    if (outcome === 'applied') {
      this.review = reviewAfterStatus(this.review, record.taskStatus);
      this.status = record.taskStatus;
      this.workerActed = true;
      this.latest = { record, receivedAt: at };
      this.lastApplied = { instant, key };
    }
    this.record({ kind: 'partner', at, record, outcome });
    return outcome;
  }

  /** Admin (approve, reject, reset) and portal (start, complete) actions; a refusal leaves the task unchanged. */
  applyAction(action: TaskAction, nowMs: number): ActionResult {
    const refusal = refusalOf(this, action);
    if (refusal !== undefined) return { ok: false, reason: refusal };
    const at = new Date(nowMs).toISOString();
    switch (action) {
      case 'start':
        this.status = 'inProgress';
        this.workerActed = true;
        break;
      case 'complete':
        this.review = reviewAfterStatus(this.review, 'completed');
        this.status = 'completed';
        this.workerActed = true;
        break;
      case 'approve':
      case 'reject':
        // spec 3: the resulting state of approve and reject is "not shown". The emulator keeps the status completed
        // and records the decision on the review.
        this.review = { required: this.review.required, state: action === 'approve' ? 'approved' : 'rejected', decidedAt: at };
        break;
      case 'reset':
        // spec 3: the resulting state of a reset is "not shown", only that the task can be restarted with the same
        // parameters. The emulator returns it to its initial state: ready, no review, no worker action yet.
        this.status = 'ready';
        this.review = { required: this.review.required, state: 'none' };
        this.workerActed = false;
        break;
    }
    const kind = action === 'start' || action === 'complete' ? 'portal' : 'admin';
    this.record({ kind, at, action });
    return { ok: true };
  }

  view(): AssignmentView {
    return {
      ...this.context,
      options: this.options,
      launchUrl: this.launchUrl,
      origin: this.origin,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      status: this.status,
      review: this.review,
      workerActed: this.workerActed,
      latest: this.latest,
      trail: this.trail,
      trailDropped: this.trailDropped,
    };
  }

  private record(entry: TrailEntry): void {
    this.trail.push(entry);
    if (this.trail.length > TRAIL_LIMIT) {
      this.trail.shift();
      this.trailDropped += 1;
    }
    this.updatedAt = entry.at;
  }
}

/** A key that is equal for two records with identical content, whatever the order of their JSON keys. */
function canonicalKey(record: ReceivedUpdate): string {
  const status = record.partnerStatus;
  return JSON.stringify([
    record.taskStatus,
    record.sentAt,
    record.partnerId ?? null,
    record.partnerUrl ?? null,
    status === undefined ? null : [status.label ?? null, status.color ?? null, status.details ?? null],
  ]);
}
