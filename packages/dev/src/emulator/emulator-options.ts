import type { EmulatorClock } from './emulator-clock.ts';

/** A clock the control API can move forward (POST /control/clock): tokens expire on it (docs/platform.md#token). */
export type AdjustableClock = EmulatorClock;

/**
 * docs/platform.md#token: "Field names and shape of the response body: not shown". The emulator can answer in several shapes so the
 * client's tolerance (docs/decisions/007-unknowns-stay-configurable.md) can be tested.
 */
export const tokenShapes = ['oauth', 'camelCase', 'noExpiry', 'unrecognized'] as const;
export type TokenShape = (typeof tokenShapes)[number];

export const unknownTaskModes = ['create', 'reject'] as const;
type UnknownTaskMode = (typeof unknownTaskModes)[number];

export interface EmulatorCredential {
  key: string;
  secret: string;
  /**
   * The client company whose integration holds this key (docs/platform.md#authentication: integrations, and so their keys, are created in one
   * client's settings). Absent: a partner-wide credential that may act for any company, as the default one does, so
   * single-credential setups and the preview work unchanged.
   */
  companyUuid?: string;
}

export interface EmulatorOptions {
  /** Default: a new OffsetClock (real time that can jump ahead). */
  clock?: AdjustableClock;
  /** Default: [EMULATOR_CREDENTIAL]. */
  credentials?: EmulatorCredential[];
  /** Default 3600: docs/platform.md#token and docs/platform.md#limits, a token is valid 60 minutes. */
  tokenLifetimeSeconds?: number;
  /** Default 'create'; 'reject' answers 404 task_not_found for an assigned task the control API never created. */
  unknownTasks?: UnknownTaskMode;
  /** Default false: docs/platform.md#statuses-and-transitions names "viewed" but docs/platform.md#partner-task-update-record does not list it, so it is refused unless this is set. */
  acceptViewed?: boolean;
  /** Default 10_000: the request log is a ring buffer so a benchmark cannot grow it without bound. */
  requestLogLimit?: number;
  /** Default 'oauth'. */
  tokenShape?: TokenShape;
  /**
   * A SQLite file that keeps the assigned tasks, credentials and settings across restarts (emulator-state-file.ts).
   * Default none: everything in memory, as tests want it.
   */
  stateFile?: string;
}

/** The settings the control API may change at run time (PUT /control/settings). */
export interface EmulatorSettings {
  tokenShape: TokenShape;
  unknownTasks: UnknownTaskMode;
  acceptViewed: boolean;
  /** False rehearses a credential whose role lacks the partner-task permission: every update answers 403 (docs/platform.md#authentication). */
  partnerTaskPermission: boolean;
}

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;
