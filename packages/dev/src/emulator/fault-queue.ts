export const faultKinds = ['status', 'rateLimit', 'delay', 'drop', 'expireToken'] as const;
export type FaultKind = (typeof faultKinds)[number];
export const faultEndpoints = ['token', 'workers', 'partnerTask', 'any'] as const;
export type FaultEndpoint = (typeof faultEndpoints)[number];

export interface FaultSpec {
  endpoint: FaultEndpoint;
  kind: FaultKind;
  /** How many matching requests this fault decides; default 1. */
  count: number;
  /** kind status: the answered status, default 503. */
  status?: number;
  /** kind rateLimit: the Retry-After seconds of the 429, default 1. */
  retryAfterSeconds?: number;
  /** kind delay: how long to wait before answering normally. */
  delayMs?: number;
  /**
   * kinds delay and drop: act after the request was handled instead of before, so an update is applied but its
   * answer is late or lost (an emulator addition for testing redelivery).
   */
  after?: boolean;
  /**
   * endpoint partnerTask only: the fault decides only updates of this assigned task (an emulator addition for the
   * preview portal, so an outage shown on one task leaves every other task alone).
   */
  assignedTaskUuid?: string;
}

export interface Fault extends FaultSpec {
  id: number;
  /** Matching requests still to be decided by this fault. */
  remaining: number;
}

/**
 * Injected faults, consumed in the order they were added by the next matching requests: the first queued fault whose
 * endpoint matches decides the request, and is removed once its count is used up. `expireToken` never matches the
 * token endpoint, which carries no bearer token.
 */
export class FaultQueue {
  private faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault: Fault = {
      ...spec,
      ...(spec.assignedTaskUuid === undefined ? {} : { assignedTaskUuid: spec.assignedTaskUuid.toLowerCase() }),
      id: this.nextId++,
      remaining: spec.count,
    };
    this.faults.push(fault);
    return fault;
  }

  /**
   * `endpoint`: the upstream endpoint a request came to, named from this file's own list (the request log imports
   * FaultKind from here, so importing its UpstreamEndpoint back would be a cycle). `assignedTaskUuid`: the task a
   * partner-task request is for, matched against faults aimed at one task.
   */
  take(endpoint: Exclude<FaultEndpoint, 'any'>, assignedTaskUuid?: string): Fault | undefined {
    if (this.faults.length === 0) return undefined;
    const task = assignedTaskUuid?.toLowerCase();
    const index = this.faults.findIndex(
      (fault) =>
        (fault.endpoint === 'any' || fault.endpoint === endpoint) &&
        !(fault.kind === 'expireToken' && endpoint === 'token') &&
        (fault.assignedTaskUuid === undefined || fault.assignedTaskUuid === task),
    );
    const fault = this.faults[index];
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults.splice(index, 1);
    return fault;
  }

  list(): Fault[] {
    return [...this.faults];
  }

  /** Removes every fault, or only those aimed at one assigned task. */
  clear(assignedTaskUuid?: string): number {
    const before = this.faults.length;
    const task = assignedTaskUuid?.toLowerCase();
    this.faults = task === undefined ? [] : this.faults.filter((fault) => fault.assignedTaskUuid !== task);
    return before - this.faults.length;
  }
}
