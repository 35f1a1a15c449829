import type { FastifyPluginAsync } from 'fastify';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import type { ApiCredential } from '../config.ts';
import type { DevHost } from './dev-host.ts';

/**
 * What the server takes from @partner-task-kit/dev, the kit's development tools, which an app has as a devDependency
 * (docs/architecture.md#the-dev-package): in emulator mode the emulator of the platform and the stand-in of the
 * partner's backend, and for `doctor` an emulator of its own. The package implements this interface; the server never
 * imports it by name at build time (loadDevTools), so a production install, which has no dev dependencies, holds none
 * of it.
 */
export interface DevTools {
  /** Emulator mode's parts for one start of the server. */
  emulatorMode(options: EmulatorModeOptions): EmulatorMode;
  /** An emulator on a port of its own (`doctor` in emulator mode checks against it without a server running). */
  startEmulator(options: { port: number; credentials: ApiCredential[] }): Promise<{ url: string; close(): Promise<void> }>;
}

export interface EmulatorModeOptions {
  /** The app's workflows: the stand-in answers offers with their steps' samples. */
  workflows: WorkflowCatalog;
  /** No PARTNER_WEBHOOK_URL: the partner's events go to a receiver in this process (docs/development.md#the-partner-backend-panel). */
  receiveEvents: boolean;
  /** No PARTNER_BACKEND_URL: offers are asked of a stand-in in this process. */
  answerOffers: boolean;
}

export interface EmulatorMode {
  /** The secret the server signs the events to the receiver with; undefined without a receiver. */
  eventsSecret: string | undefined;
  /** The secret the server signs its offer requests to the stand-in with; undefined without a stand-in. */
  offersSecret: string | undefined;
  /**
   * Registered under /emulator: the platform's endpoints at its root, the stand-in's (`/partner-backend/events`,
   * `/partner-backend/offers/:workflowId/:stepId`) beside them, and, with `control`, the preview's control API under
   * /control.
   */
  plugin: FastifyPluginAsync<EmulatorModeMount>;
}

export interface EmulatorModeMount {
  /** The credentials the emulator accepts: the one the server uses in emulator mode. */
  credentials: ApiCredential[];
  /**
   * Whether the control API is mounted: only with the preview, since it has no authentication and shows and changes
   * every task (docs/configuration.md#the-page-and-the-portal).
   */
  control: boolean;
  /** EMULATOR_STATE_FILE: where the emulator keeps its tasks across restarts; undefined keeps them in memory. */
  stateFile: string | undefined;
  /** This server's own address: the preview's buttons call its partner API over HTTP, as a backend would. */
  selfUrl: string;
  /** OFFER_TIMEOUT_MS: a "too slow" answer of the stand-in comes a second after it. */
  offerTimeoutMs: number;
  /** What the server lends the stand-in's panel: its clock, reads of a task, a partner key. */
  host: DevHost;
}

/**
 * The package's name in a variable, not a literal: a literal import() would be followed by esbuild into the app's
 * server bundle and by tsc into this package's types, and the dev tools would ship with every production build.
 */
const DEV_PACKAGE: string = '@partner-task-kit/dev';

/** The dev tools are not installed where the server runs: a production install (npm ci --omit=dev) has none. */
export class DevToolsMissing extends Error {
  constructor(readonly why: string) {
    super(
      `${why} needs @partner-task-kit/dev, which is not installed: add it as a dev dependency ` +
        '(npm install --save-dev @partner-task-kit/dev, at the version of the other kit packages), or set the production settings ' +
        '(WX_API_KEY and WX_API_SECRET, or CREDENTIALS_KEY; docs/configuration.md)',
    );
    this.name = 'DevToolsMissing';
  }
}

/** Emulator mode's reason, as the start names it. */
export const EMULATOR_MODE = 'emulator mode (no WX_API_KEY, no CREDENTIALS_KEY)';

/**
 * The dev tools, loaded at run time only when a mode needs them; `why` names that mode in the refusal when the package
 * is not there. `specifier` is the package's name (another only in tests).
 */
export async function loadDevTools(why: string, specifier = DEV_PACKAGE): Promise<DevTools> {
  let loaded: { devTools?: DevTools };
  try {
    loaded = (await import(specifier)) as { devTools?: DevTools };
  } catch (error) {
    if (isMissing(error, specifier)) throw new DevToolsMissing(why);
    throw error;
  }
  if (typeof loaded.devTools?.emulatorMode !== 'function')
    throw new Error(`${specifier} has no devTools: install the version of the other @partner-task-kit packages`);
  return loaded.devTools;
}

/** The package itself not found, not a module it imports (that is a broken install, reported as it is). */
function isMissing(error: unknown, specifier: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /^Cannot find (package|module)/.test(error.message);
  return notFound && error.message.includes(`'${specifier}'`);
}
