import { randomUUID } from 'node:crypto';
import {
  type ActionResult,
  type AppliedUpdate,
  type AssignmentContext,
  type AssignmentOptions,
  type AssignmentOrigin,
  type AssignmentView,
  type EmulatorTaskStatus,
  type PartnerOutcome,
  type ReceivedUpdate,
  type Review,
  type TaskAction,
  type TrailEntry,
  compareSentAt,
  sentAtInstant,
  type SentAtInstant,
  reviewAfterStatus,
  refusalOf,
} from './task-rules.ts';

/** The assigned tasks the emulator knows: each one's state machine (task-rules.ts applied), and the registry of them. */

/** Per task, the audit trail keeps this many entries; older ones are dropped so a benchmark cannot exhaust memory. */
const TRAIL_LIMIT = 1000;

/**
 * The state of one assigned task and the transitions of docs/platform.md#statuses-and-transitions. No HTTP here: routes call these methods, and unit
 * tests can drive them directly. Times are epoch milliseconds from the emulator's clock.
 */
export class AssignedTask {
  status: EmulatorTaskStatus = 'ready'; // docs/platform.md#statuses-and-transitions: ready is the initial state
  review: Review;
  /** docs/platform.md#statuses-and-transitions: an admin reset is allowed "in any state in which the worker initiated actions". */
  workerActed = false;
  latest: AppliedUpdate | null = null;
  readonly trail: TrailEntry[] = [];
  trailDropped = 0;
  /** Grows with every trail entry, so a saved copy (emulator-state-file.ts) can tell which tasks changed since. */
  revision = 0;
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
   * docs/platform.md#statuses-and-transitions and docs/platform.md#the-update-endpoint: an update whose sentAt is not older than the last applied one sets the sent status (equal
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
        // docs/platform.md#statuses-and-transitions: the resulting state of approve and reject is "not shown". The emulator keeps the status completed
        // and records the decision on the review.
        this.review = { required: this.review.required, state: action === 'approve' ? 'approved' : 'rejected', decidedAt: at };
        break;
      case 'reset':
        // docs/platform.md#statuses-and-transitions: the resulting state of a reset is "not shown", only that the task can be restarted with the same
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
    const { context, lastApplied: _lastApplied, ...state } = this.snapshot();
    return { ...context, ...state, trail: this.trail, launchUrl: this.launchUrl };
  }

  /** Everything a restarted emulator needs to carry on with this task as if it had never stopped. */
  snapshot(): AssignedTaskSnapshot {
    return {
      context: this.context,
      options: this.options,
      origin: this.origin,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
      status: this.status,
      review: this.review,
      workerActed: this.workerActed,
      latest: this.latest,
      trail: this.trail,
      trailDropped: this.trailDropped,
      lastApplied: this.lastApplied,
    };
  }

  static restore(snapshot: AssignedTaskSnapshot): AssignedTask {
    const task = new AssignedTask(snapshot.context, snapshot.options, snapshot.origin, Date.parse(snapshot.createdAt));
    task.updatedAt = snapshot.updatedAt;
    task.status = snapshot.status;
    task.review = snapshot.review;
    task.workerActed = snapshot.workerActed;
    task.latest = snapshot.latest;
    task.trail.push(...snapshot.trail);
    task.trailDropped = snapshot.trailDropped;
    task.lastApplied = snapshot.lastApplied;
    return task;
  }

  private record(entry: TrailEntry): void {
    this.revision += 1;
    this.trail.push(entry);
    if (this.trail.length > TRAIL_LIMIT) {
      this.trail.shift();
      this.trailDropped += 1;
    }
    this.updatedAt = entry.at;
  }
}

/** An assigned task as plain JSON: what emulator-state-file.ts writes and reads back. */
export interface AssignedTaskSnapshot extends Omit<AssignmentView, keyof AssignmentContext | 'launchUrl' | 'trail'> {
  context: AssignmentContext;
  trail: readonly TrailEntry[];
  lastApplied: { instant: SentAtInstant; key: string } | null;
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

export interface AssignmentInput {
  /** Absent context values get fresh random UUIDs. */
  context: Partial<AssignmentContext>;
  options: AssignmentOptions;
}

/**
 * Options of a task created on the fly by a partner update for an unknown uuid (`unknownTasks: 'create'`): the
 * platform would have had a flow for it, the emulator does not, so it invents a neutral one. `.invalid` is a reserved
 * top-level domain, so the URL can never reach a real host.
 */
const implicitOptions: AssignmentOptions = {
  title: 'Partner task created by an update',
  iframeUrl: 'https://partner.invalid/task',
  appendTaskContext: true,
  hideTaskCompletedButton: false,
  requireReview: false,
};

/**
 * The assigned tasks of one emulator, by assigned task uuid. UUIDs are compared lower-cased: RFC 9562 UUIDs are
 * case-insensitive on input, and the partner may echo wxAssignedTaskUuid in another case.
 */
export class AssignmentRegistry {
  private readonly tasks = new Map<string, AssignedTask>();

  /** Undefined when a task with that assigned task uuid already exists. */
  create(input: AssignmentInput, origin: AssignmentOrigin, nowMs: number): AssignedTask | undefined {
    const context: AssignmentContext = {
      workerUuid: (input.context.workerUuid ?? randomUUID()).toLowerCase(),
      assignedTaskUuid: (input.context.assignedTaskUuid ?? randomUUID()).toLowerCase(),
      taskFlowUuid: (input.context.taskFlowUuid ?? randomUUID()).toLowerCase(),
      companyUuid: (input.context.companyUuid ?? randomUUID()).toLowerCase(),
    };
    if (this.tasks.has(context.assignedTaskUuid)) return undefined;
    const task = new AssignedTask(context, input.options, origin, nowMs);
    this.tasks.set(context.assignedTaskUuid, task);
    return task;
  }

  /**
   * The task, created on the fly when it is unknown, with invented options and context: in `companyUuid` when given
   * (the company of the credential that sent the update), else in a random company.
   */
  getOrCreate(assignedTaskUuid: string, nowMs: number, companyUuid?: string): AssignedTask {
    const existing = this.get(assignedTaskUuid);
    if (existing !== undefined) return existing;
    const created = this.create({ context: { assignedTaskUuid, companyUuid }, options: implicitOptions }, 'partnerUpdate', nowMs);
    if (created === undefined) throw new Error('unreachable: the task was just found missing');
    return created;
  }

  /** Puts back a task saved before a restart, after those already restored (list() keeps creation order). */
  restore(task: AssignedTask): void {
    this.tasks.set(task.context.assignedTaskUuid, task);
  }

  get(assignedTaskUuid: string): AssignedTask | undefined {
    return this.tasks.get(assignedTaskUuid.toLowerCase());
  }

  /** Newest first: a Map keeps insertion order, so this is that order reversed. */
  list(): AssignedTask[] {
    return [...this.tasks.values()].reverse();
  }

  get size(): number {
    return this.tasks.size;
  }

  clear(): void {
    this.tasks.clear();
  }
}

/**
 * The URL the worker portal opens: the iframe URL with, when `appendTaskContext` is on, the four docs/platform.md#task-context parameters
 * appended. The existing query and fragment are kept byte for byte (the flow designer may have appended variables of
 * its own, docs/platform.md#partner-task-configuration), so the string is extended rather than re-serialised through URLSearchParams.
 */
function buildLaunchUrl(iframeUrl: string, context: AssignmentContext, appendTaskContext: boolean): string {
  if (!appendTaskContext) return iframeUrl;
  const hashAt = iframeUrl.indexOf('#');
  const base = hashAt === -1 ? iframeUrl : iframeUrl.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : iframeUrl.slice(hashAt);
  const params = [
    `wxWorkerUuid=${encodeURIComponent(context.workerUuid)}`,
    `wxAssignedTaskUuid=${encodeURIComponent(context.assignedTaskUuid)}`,
    `wxTaskFlowUuid=${encodeURIComponent(context.taskFlowUuid)}`,
    `wxCompanyUuid=${encodeURIComponent(context.companyUuid)}`,
  ].join('&');
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${params}${fragment}`;
}
