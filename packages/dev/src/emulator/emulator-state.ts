import { AssignmentRegistry } from './assignments.ts';
import { CredentialStore } from './credential-store.ts';
import { OffsetClock } from './emulator-clock.ts';
import { EMULATOR_CREDENTIAL } from './emulator-credential.ts';
import {
  DEFAULT_REQUEST_LOG_LIMIT,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  type AdjustableClock,
  type EmulatorOptions,
  type EmulatorSettings,
} from './emulator-options.ts';
import { EmulatorStateFile } from './emulator-state-file.ts';
import { FaultQueue } from './fault-queue.ts';
import { RequestLog } from './request-log.ts';
import { TokenStore } from './token-store.ts';

/**
 * Everything one emulator holds, in memory, and with `stateFile` also in a file that a restart reads back. Each
 * emulator owns its own instance (no module-level state), so two can run side by side in one process.
 */
export class EmulatorState {
  readonly clock: AdjustableClock;
  readonly credentials: CredentialStore;
  readonly settings: EmulatorSettings;
  readonly tokens: TokenStore;
  readonly assignments = new AssignmentRegistry();
  readonly requests: RequestLog;
  readonly faults = new FaultQueue();
  private readonly file: EmulatorStateFile | undefined;

  constructor(options: EmulatorOptions = {}) {
    this.file = options.stateFile === undefined ? undefined : new EmulatorStateFile(options.stateFile);
    const saved = this.file?.load();
    this.clock = options.clock ?? new OffsetClock();
    this.credentials = new CredentialStore(saved?.credentials ?? options.credentials ?? [EMULATOR_CREDENTIAL]);
    this.settings = {
      tokenShape: options.tokenShape ?? 'oauth',
      unknownTasks: options.unknownTasks ?? 'create',
      acceptViewed: options.acceptViewed ?? false,
      partnerTaskPermission: true,
      ...saved?.settings,
    };
    for (const task of saved?.tasks ?? []) this.assignments.restore(task);
    const lifetime = options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
    if (!Number.isFinite(lifetime) || lifetime <= 0) throw new RangeError('tokenLifetimeSeconds must be a positive number');
    this.tokens = new TokenStore(this.clock, lifetime);
    const logLimit = options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT;
    if (!Number.isInteger(logLimit) || logLimit < 0) throw new RangeError('requestLogLimit must be a whole number >= 0');
    this.requests = new RequestLog(logLimit);
  }

  /** True when the state is kept in a file across restarts. */
  get persistent(): boolean {
    return this.file !== undefined;
  }

  /** Writes what changed to the state file, if there is one; emulator-plugin.ts calls it before a change is answered. */
  save(): void {
    this.file?.save({ tasks: this.assignments.list().reverse(), credentials: this.credentials.all(), settings: this.settings });
  }

  /** Closes the state file, if there is one. */
  close(): void {
    this.file?.close();
  }

  /**
   * Deletes a Key (docs/platform.md#authentication) and revokes the tokens issued for it: the platform no longer accepts the credential, so
   * neither a new token nor an old one works (docs/platform.md#authentication). Undefined when no credential has that Key.
   */
  revokeCredential(key: string): { tokensRevoked: number } | undefined {
    if (!this.credentials.revoke(key)) return undefined;
    return { tokensRevoked: this.tokens.revokeKey(key) };
  }

  /**
   * POST /control/reset: forgets assignments, tokens, requests and faults; keeps settings, credentials and the clock
   * (like the settings, credentials are the setup a test or the preview made, not what happened since).
   */
  reset(): void {
    this.assignments.clear();
    this.tokens.clear();
    this.requests.clear();
    this.faults.clear();
  }
}
