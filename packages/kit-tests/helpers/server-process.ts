import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { EMULATOR_CREDENTIAL } from '@partner-task-kit/dev';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote, for assertions and for a failing test's message. */
  output: () => string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** A free loopback port: bound, read, released. A restarted server reuses it, as a real deployment would. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Outside emulator mode /metrics answers only a bearer token (README "Operating it"): the one platformEnv sets. */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789abcdef0123';

/**
 * The environment of a server in platform mode whose platform is the emulator at `emulatorUrl`: it talks to it as to
 * the real one (credential, token, updates) and mounts no emulator of its own. Servers given the same environment share
 * the session secret, so a worker's token works on either.
 */
export function platformEnv(emulatorUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return productionEnv(emulatorUrl, { WX_API_KEY: EMULATOR_CREDENTIAL.key, WX_API_SECRET: EMULATOR_CREDENTIAL.secret, ...extra });
}

/** The key every tenant-mode test seals the companies' Secrets with. */
const TEST_CREDENTIALS_KEY = Buffer.alloc(32, 42).toString('base64');

/**
 * The environment of a server, or of a command, in tenant mode (docs/operations.md#tenants): a credential per company,
 * added with `npm run tenants` and sealed with CREDENTIALS_KEY; the platform at `platformUrl` (an emulator, or the
 * default: nothing listens, for commands that never call it).
 */
export function tenantModeEnv(platformUrl = 'http://127.0.0.1:9', extra: Record<string, string> = {}): Record<string, string> {
  return productionEnv(platformUrl, { CREDENTIALS_KEY: TEST_CREDENTIALS_KEY, ...extra });
}

function productionEnv(platformUrl: string, extra: Record<string, string>): Record<string, string> {
  return {
    WX_AUTH_URL: platformUrl,
    WX_BASE_URL: platformUrl,
    WX_TASK_BASE_URL: platformUrl,
    PORTAL_ORIGINS: 'https://portal.example.com',
    SESSION_SECRET: 'test-session-secret-0123456789abcdef0123',
    SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    // Load tests drive every task from this one address: its limits (shared by the instances on one Postgres) are off.
    RATE_LIMIT_PER_ADDRESS: '0',
    NEW_TASKS_PER_ADDRESS_PER_HOUR: '0',
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    // No proxy stands in front of a test's server: a stop need not wait for one to notice readiness.
    SHUTDOWN_GRACE_MS: '0',
    ...extra,
  };
}

/**
 * How the server is started: by default the engine's fixture entry (fixtures/kit-main.ts, runKit as an app's
 * server/main.ts runs it) through tsx, so no test needs the app's examples; or a command such as `npm run serve`.
 */
const TSX_SERVER: readonly string[] = [process.execPath, '--import', 'tsx', 'packages/kit-tests/fixtures/kit-main.ts'];

/** A server process started but not yet known to answer: its output can be read while it starts. */
export interface LaunchedServer extends ServerProcess {
  /**
   * Resolves once the app answers /healthz (`ok`, not the listener's `starting` while it waits for its database);
   * rejects (and kills it) if it exits or does not within `timeoutMs`.
   */
  healthy(timeoutMs?: number): Promise<ServerProcess>;
}

/** Starts the server in a child process (in `cwd`, an app's folder, when given) and returns at once. */
export async function launchServer(
  env: Record<string, string>,
  command: readonly string[] = TSX_SERVER,
  cwd?: string,
): Promise<LaunchedServer> {
  const port = env.PORT ?? String(await freePort());
  const [executable = process.execPath, ...args] = command;
  const child = spawn(executable, args, {
    ...(cwd === undefined ? {} : { cwd }),
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const launched: LaunchedServer = {
    url,
    child,
    output: () => output,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    healthy: async (timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
        const healthy = await fetch(`${url}/healthz`).then(
          async (response) => response.ok && ((await response.json()) as { status?: unknown }).status === 'ok',
          () => false,
        );
        if (healthy) return launched;
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`server did not answer within ${timeoutMs} ms:\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  return launched;
}

/** The process's exit code once it has exited (null when a signal ended it). */
export function exitOf(server: ServerProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) resolve(server.child.exitCode);
    else server.child.once('exit', (code) => resolve(code));
  });
}

/** Starts the server in a child process and waits until its app answers /healthz. */
export async function spawnServer(
  env: Record<string, string>,
  timeoutMs = 20_000,
  command: readonly string[] = TSX_SERVER,
): Promise<ServerProcess> {
  return (await launchServer(env, command)).healthy(timeoutMs);
}
