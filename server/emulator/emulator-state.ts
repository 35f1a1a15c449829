import { AssignmentRegistry } from './assignments';
import { OffsetClock } from './emulator-clock';
import { EMULATOR_CREDENTIAL } from './emulator-credential';
import {
  DEFAULT_REQUEST_LOG_LIMIT,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  type AdjustableClock,
  type EmulatorCredential,
  type EmulatorOptions,
  type EmulatorSettings,
} from './emulator-options';
import { FaultQueue } from './fault-queue';
import { RequestLog } from './request-log';
import { TokenStore } from './token-store';

/**
 * Everything one emulator holds, in memory. Each emulator owns its own instance (no module-level state), so two can
 * run side by side in one process.
 */
export class EmulatorState {
  readonly clock: AdjustableClock;
  readonly credentials: readonly EmulatorCredential[];
  readonly settings: EmulatorSettings;
  readonly tokens: TokenStore;
  readonly assignments = new AssignmentRegistry();
  readonly requests: RequestLog;
  readonly faults = new FaultQueue();

  constructor(options: EmulatorOptions = {}) {
    this.clock = options.clock ?? new OffsetClock();
    this.credentials = (options.credentials ?? [EMULATOR_CREDENTIAL]).map((c) => ({ key: c.key, secret: c.secret }));
    this.settings = {
      tokenShape: options.tokenShape ?? 'oauth',
      unknownTasks: options.unknownTasks ?? 'create',
      acceptViewed: options.acceptViewed ?? false,
      partnerTaskPermission: true,
    };
    const lifetime = options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
    if (!Number.isFinite(lifetime) || lifetime <= 0) throw new RangeError('tokenLifetimeSeconds must be a positive number');
    this.tokens = new TokenStore(this.clock, lifetime);
    const logLimit = options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT;
    if (!Number.isInteger(logLimit) || logLimit < 0) throw new RangeError('requestLogLimit must be a whole number >= 0');
    this.requests = new RequestLog(logLimit);
  }

  /** The key whose secret matches, or undefined: the check of spec 4.1's Basic credentials. */
  authenticate(key: string, secret: string): string | undefined {
    return this.credentials.find((c) => c.key === key && c.secret === secret)?.key;
  }

  /** POST /control/reset: forgets assignments, tokens, requests and faults; keeps settings and the clock. */
  reset(): void {
    this.assignments.clear();
    this.tokens.clear();
    this.requests.clear();
    this.faults.clear();
  }
}
