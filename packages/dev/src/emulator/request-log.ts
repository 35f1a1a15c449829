import type { FaultKind } from './fault-queue.ts';

export const upstreamEndpoints = ['token', 'workers', 'partnerTask'] as const;
export type UpstreamEndpoint = (typeof upstreamEndpoints)[number];

export interface LoggedRequest {
  /** Increases by one per request received by this emulator since it started. */
  seq: number;
  time: string;
  endpoint: UpstreamEndpoint;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body when it parsed, else the raw text (cut to BODY_LOG_LIMIT characters); null when none. */
  body: unknown;
  /** The response status; null while unanswered or when the socket was dropped by a fault. */
  status: number | null;
  /** True once the emulator is done with the request: answered, dropped, or given up with its client. */
  ended?: boolean;
  /**
   * The Key of the credential that made the request: for the token endpoint the Key whose Secret matched, for the
   * others the Key the presented token was issued for (even when it is expired or revoked). Absent when the emulator
   * cannot tell. Never the Secret or the token, so a test can check which tenant made each call without holding them.
   */
  credentialKey?: string;
  /** The injected fault that decided this request, if any. */
  fault?: FaultKind;
}

export const BODY_LOG_LIMIT = 16_384;

/** The requests the upstream endpoints received, a ring buffer of fixed size so a benchmark cannot exhaust memory. */
export class RequestLog {
  private readonly entries: Array<LoggedRequest | undefined>;
  private next = 0;
  private count = 0;
  private seq = 0;

  constructor(readonly limit: number) {
    this.entries = new Array<LoggedRequest | undefined>(limit);
  }

  /** Adds an entry; the caller may complete it later (body, status) since the log holds the same object. */
  add(entry: Omit<LoggedRequest, 'seq'>): LoggedRequest {
    const logged: LoggedRequest = { seq: ++this.seq, ...entry };
    if (this.limit === 0) return logged;
    this.entries[this.next] = logged;
    this.next = (this.next + 1) % this.limit;
    this.count = Math.min(this.count + 1, this.limit);
    return logged;
  }

  /** Oldest first (newest last), optionally only one endpoint's, and only the last `limit`. */
  list(endpoint?: UpstreamEndpoint, limit?: number): LoggedRequest[] {
    const result: LoggedRequest[] = [];
    const start = (this.next - this.count + this.limit) % Math.max(this.limit, 1);
    for (let i = 0; i < this.count; i += 1) {
      const entry = this.entries[(start + i) % this.limit];
      if (entry !== undefined && (endpoint === undefined || entry.endpoint === endpoint)) result.push(entry);
    }
    return limit === undefined ? result : result.slice(Math.max(result.length - limit, 0));
  }

  /** Empties the log and returns how many entries it held. */
  clear(): number {
    const cleared = this.count;
    this.entries.fill(undefined);
    this.next = 0;
    this.count = 0;
    return cleared;
  }
}
