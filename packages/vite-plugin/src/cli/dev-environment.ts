import { join } from 'node:path';
import type { Config } from '@partner-task-kit/server/internal';

// The kit's guides named below (configuration.md, decisions/) are in its repository, which an app does not hold:
// https://github.com/partner-task-kit/partner-task-kit/tree/main/docs

/** The port `partner-task-kit dev` opens when PORT is unset: the server's own default (configuration.md, Listening). */
const DEFAULT_PORT = 8787;

interface DevPlan {
  /** Where the developer opens the page and the preview: Vite's dev server, on PORT. */
  pagePort: number;
  /** The environment of the server behind it, on a free loopback port of its own. */
  serverEnvironment: Record<string, string | undefined>;
  /** Emulator mode only: the file that keeps the emulator's tasks across the server's restarts. */
  emulatorStateFile: string | undefined;
  /** The database the server uses, for the banner (a path, or "Postgres" without the URL, which may hold a password). */
  databaseLabel: string;
  /** The address to open, printed once both are up. */
  openUrl: string;
}

/**
 * How `partner-task-kit dev` (the app's `npm run dev`) runs two processes from one PORT, so that checkouts side by
 * side only need different PORTs: Vite (hot reload for the page) listens on PORT and forwards /api, /emulator and /healthz to the server, which
 * listens on `serverPort`, a free loopback port chosen at each start and kept for the server's restarts.
 *
 * What else depends on PORT, so that two dev servers in one checkout do not share it: the emulator's state file
 * (data/emulator-<PORT>.db), and, when DATABASE_URL is unset and PORT is not the default, the database
 * (data/partner-task-<PORT>.db). A shared database would let one server's relay deliver the other's updates to its
 * own emulator, which never assigned those tasks and would answer 404 (the task becomes rejected:
 * decisions/008-a-deputy-for-many-companies.md).
 */
export function planDevServers(
  environment: Record<string, string | undefined>,
  config: Config,
  serverPort: number,
  pagePort: number,
): DevPlan {
  const serverEnvironment: Record<string, string | undefined> = { ...environment, PORT: String(serverPort), HOST: '127.0.0.1' };
  // The page is served from Vite's port, so its origins may frame it and receive the end event. With a real credential
  // PORTAL_ORIGINS is required: never fill it in for the developer, only extend what they set.
  const pageOrigins = [`http://localhost:${pagePort}`, `http://127.0.0.1:${pagePort}`];
  if (config.emulatorMode || config.portalOrigins.length > 0) {
    serverEnvironment.PORTAL_ORIGINS = [...config.portalOrigins, ...pageOrigins].join(',');
  }
  // No proxy stands in front of a dev server, and tsx watch restarts it at each change, giving it 5 s: no grace
  // (configuration.md, Listening), with a real credential too.
  if ((environment.SHUTDOWN_GRACE_MS ?? '').trim() === '') serverEnvironment.SHUTDOWN_GRACE_MS = '0';
  const databaseUnset = (environment.DATABASE_URL ?? '').trim() === '';
  if (databaseUnset && pagePort !== DEFAULT_PORT) serverEnvironment.DATABASE_URL = `./data/partner-task-${pagePort}.db`;
  let emulatorStateFile: string | undefined;
  if (config.emulatorMode) {
    emulatorStateFile = config.emulatorStateFile ?? join('data', `emulator-${pagePort}.db`);
    serverEnvironment.EMULATOR_STATE_FILE = emulatorStateFile;
  }
  const databaseLabel =
    config.database.kind === 'postgres' ? 'Postgres (DATABASE_URL)' : (serverEnvironment.DATABASE_URL ?? config.database.filename);
  const openUrl = `http://localhost:${pagePort}/${config.previewEnabled ? 'preview' : ''}`;
  return { pagePort, serverEnvironment, emulatorStateFile, databaseLabel, openUrl };
}
