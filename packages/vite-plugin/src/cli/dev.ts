import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { parseConfig, readEnvironment } from '@partner-task-kit/server/internal';
import { WORKFLOWS_DIRECTORY } from '../workflow-folders.ts';
import { planDevServers } from './dev-environment.ts';

/** This package's register module (register.ts), by its URL: the app's folder need not resolve the package's name. */
const registerModule = new URL(`../register.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href;

/**
 * `partner-task-kit dev [--reset-emulator]`, the app's `npm run dev`, run in the app's folder (the working directory):
 * Vite's dev server with hot reload for the page on PORT (8787 by default), with the app's vite.config.ts, and behind it
 * the app's server (server/main.ts), restarted on change by tsx watch, on a free loopback port (dev-environment.ts).
 * Two checkouts run side by side with different PORTs. In emulator mode the emulator keeps its tasks in
 * data/emulator-<PORT>.db across the server's restarts; --reset-emulator starts it empty.
 *
 * Stopping it stops everything it started: on SIGINT (Ctrl-C), SIGTERM (an IDE's stop button, or npm passing one on)
 * and SIGHUP (the terminal closed), and also when its own parent is gone. That last one matters: npm runs this script
 * through `sh -c`, and a signal npm passes on reaches only that shell, which dies and leaves this process behind.
 *
 * Started from the package's compiled dist/ (the bin), so it names the app's files from `process.cwd()`, never from
 * its own location, which is in node_modules.
 */
export async function dev(args: readonly string[]): Promise<void> {
  const { values } = parseArgs({ args: [...args], options: { 'reset-emulator': { type: 'boolean', default: false } } });

  const root = process.cwd();
  const environment = readEnvironment(join(root, '.env'));
  const parsed = parseConfig(environment);
  if (!parsed.ok) {
    process.stderr.write(`Configuration is invalid:\n${parsed.problems.map((problem) => `  ${problem}`).join('\n')}\n`);
    process.exit(1);
  }
  const config = parsed.config;
  const serverPort = config.devServerPort ?? (await freePort());
  const plan = planDevServers(environment, config, serverPort, config.port === 0 ? await freePort() : config.port);

  if (values['reset-emulator'] && plan.emulatorStateFile !== undefined) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${plan.emulatorStateFile}${suffix}`, { force: true });
    process.stdout.write(`emulator state reset: ${plan.emulatorStateFile} removed\n`);
  }

  const serverUrl = `http://127.0.0.1:${plan.serverEnvironment.PORT}`;
  // The server entry as the app's commands run it (register.ts: `virtual:partner-task-kit/workflows`), restarted when a
  // file it imports changes and when a file or folder comes or goes in src/workflows/: a workflow added as a folder is
  // served at once (docs/architecture.md#how-the-server-finds-them).
  const watch = ['watch', '--clear-screen=false', '--include', `${WORKFLOWS_DIRECTORY}/**`, '--import', registerModule];
  const server = spawn(process.execPath, [tsxCli(root), ...watch, 'server/main.ts'], {
    cwd: root,
    // Standard output through this process, which takes out the server's own preview address (see below).
    // Standard input is a pipe fed from ours: tsx watch reruns the server on the Return key, and its process group,
    // not the terminal's, may not read the terminal itself.
    stdio: ['pipe', 'pipe', 'inherit'],
    env: serverEnvironment(),
    // A process group of its own, tsx watch and the server it runs: stopped as one (stopServer). Ctrl-C at the terminal
    // reaches this process only, which stops the server once, instead of the server seeing SIGINT twice (from the
    // terminal, then from tsx watch passing it on) and being cut off in its shutdown.
    detached: true,
  });
  if (process.stdin.isTTY) process.stdin.pipe(server.stdin!);
  // An error on the pipe (the server gone) is no error of this process.
  server.stdin!.on('error', () => {});
  passServerOutput();

  // Vite once it exists: stopAll may run before (a signal, or the server exiting at once).
  const running: { vite?: ViteDevServer } = {};
  let stopping: Promise<void> | undefined;
  /** Stops Vite and the server's whole process group, then exits with `code`. */
  function stopAll(code: number): Promise<void> {
    if (stopping) return stopping;
    process.exitCode = code;
    process.stdin.unpipe();
    process.stdin.pause();
    // Should Vite never finish closing, the process exits all the same once the server is down or given up on.
    setTimeout(() => process.exit(), 10_000).unref();
    stopping = Promise.allSettled([running.vite?.close(), stopServer()]).then(() => process.exit());
    return stopping;
  }
  server.on('exit', (code) => void stopAll(code ?? 0));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void stopAll(0));
  // A parent that is gone passed on no signal (see above): this process is adopted, and its parent process id changes.
  const parentAtStart = process.ppid;
  setInterval(() => {
    if (process.ppid !== parentAtStart) void stopAll(1);
  }, 500).unref();
  // Whoever read this process's output is gone (an IDE's console closed): nothing is watching any longer.
  process.stdout.on('error', () => void stopAll(1));

  // Vite in this process, on PORT, with vite.config.ts and the server's address for its proxy.
  const vite = await createViteServer({
    configFile: join(root, 'vite.config.ts'),
    root,
    server: {
      port: plan.pagePort,
      strictPort: true,
      proxy: { '/api': serverUrl, '/emulator': serverUrl, '/healthz': serverUrl },
      // The databases change at every request; they are no module of the page.
      watch: { ignored: ['**/data/**'] },
    },
  }).catch((error: unknown) => stopAfterFailure(error));
  running.vite = vite;
  await vite.listen().catch((error: unknown) => stopAfterFailure(error));

  // Printed once the server answers, so the address to open is the last thing on the screen, after the server's own
  // start lines (which name its loopback port behind Vite).
  const answering = await serverAnswers(serverUrl, 120_000);
  if (stopping === undefined) {
    process.stdout.write(
      [
        '',
        ...(answering ? [] : [`  the server has not answered yet at ${serverUrl}: see its lines above`]),
        `  open ${plan.openUrl}  (page with hot reload; the server behind it: ${serverUrl})`,
        `  database: ${plan.databaseLabel}`,
        ...(plan.emulatorStateFile === undefined
          ? []
          : [`  emulator state: ${plan.emulatorStateFile} (kept across restarts; \`npm run dev -- --reset-emulator\` empties it)`]),
        '',
        '',
      ].join('\n'),
    );
  }

  /** Vite could not start (most often: PORT is taken): say so in one line and stop the server started for it. */
  async function stopAfterFailure(error: unknown): Promise<never> {
    const code = (error as { code?: unknown }).code;
    const reason =
      code === 'EADDRINUSE' || (error instanceof Error && /already in use/.test(error.message))
        ? `PORT ${plan.pagePort} is already in use: stop the program that holds it or set PORT to another port, e.g. PORT=${plan.pagePort + 10} npm run dev`
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`npm run dev could not start: ${reason}\n`);
    await stopAll(1);
    return process.exit(1);
  }

  /**
   * The server's environment: the plan's, plus what makes it stop with this process (dev-parent-watch.ts, loaded into
   * tsx watch and into the server through NODE_OPTIONS) and what keeps its logs as they would be on the terminal, now
   * that its output comes through a pipe (pino-pretty with colours, unless the developer chose otherwise).
   */
  function serverEnvironment(): Record<string, string | undefined> {
    // Compiled beside this module in the package's dist/, where the bin runs it from.
    const watchParent = `--import=${new URL('./dev-parent-watch.js', import.meta.url).href}`;
    const onTerminal = process.stdout.isTTY === true;
    const { NODE_OPTIONS, LOG_FORMAT, FORCE_COLOR, NO_COLOR } = plan.serverEnvironment;
    return {
      ...plan.serverEnvironment,
      NODE_OPTIONS: [NODE_OPTIONS, `"${watchParent}"`].filter(Boolean).join(' '),
      ...(onTerminal && LOG_FORMAT === undefined ? { LOG_FORMAT: 'pretty' } : {}),
      ...(onTerminal && FORCE_COLOR === undefined && NO_COLOR === undefined ? { FORCE_COLOR: '1' } : {}),
    };
  }

  /**
   * The server's output, line by line, without the preview address it prints at start: that one is on the server's own
   * port, behind Vite, where the page has no hot reload. The one to open is Vite's, printed below once the server
   * answers. The server's line names the preview after a ` · `; should its wording change, any other mention of its
   * preview is given Vite's address instead, so only one address is ever printed for the preview.
   */
  function passServerOutput(): void {
    const port = plan.serverEnvironment.PORT;
    const previewSegment = new RegExp(String.raw` · [^·"\n]*http://(?:localhost|127\.0\.0\.1):${port}/preview\b`, 'g');
    const previewAddress = new RegExp(String.raw`http://(?:localhost|127\.0\.0\.1):${port}/preview\b`, 'g');
    const lines = createInterface({ input: server.stdout!, crlfDelay: Infinity });
    lines.on('line', (line) => {
      process.stdout.write(`${line.replace(previewSegment, '').replace(previewAddress, plan.openUrl.replace(/\/$/, ''))}\n`);
    });
  }

  /**
   * Stops tsx watch, which stops the server (SIGTERM, so it finishes the deliveries in flight; SIGKILL after 5 s) and
   * exits once it has, then kills whatever is left in their process group.
   */
  function stopServer(): Promise<void> {
    if (server.pid === undefined) return Promise.resolve();
    const pid = server.pid;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        // The group is empty.
      }
    };
    return new Promise((resolve) => {
      const stopped = () => {
        killGroup('SIGKILL');
        clearTimeout(deadline);
        resolve();
      };
      // tsx watch gives the server 5 s before killing it: past that and a margin, nothing waits any longer.
      const deadline = setTimeout(stopped, 8_000);
      if (server.exitCode !== null || server.signalCode !== null) stopped();
      else {
        server.once('exit', stopped);
        server.kill('SIGTERM');
      }
    });
  }

  /**
   * Whether the server's app answers /healthz within `timeoutMs` (false also when it exited, e.g. on bad configuration):
   * `ok`, not the `starting` its listener answers while it waits for the database.
   */
  async function serverAnswers(url: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && server.exitCode === null) {
      const ok = await fetch(`${url}/healthz`).then(
        async (response) => response.ok && ((await response.json()) as { status?: unknown }).status === 'ok',
        () => false,
      );
      if (ok) return true;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return false;
  }
}

/**
 * tsx's command line as the app installed it (a devDependency of the app, which its other scripts run), wherever npm
 * placed it; this package's own tsx (a dependency) when the app's cannot be found.
 */
function tsxCli(root: string): string {
  for (const from of [join(root, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from).resolve('tsx/cli');
    } catch {
      // Not installed there: the next place.
    }
  }
  throw new Error('tsx is not installed: add it to the devDependencies (npm install --save-dev tsx)');
}

/** A free loopback port: bound, read, released. The server takes it at once and keeps it across its restarts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
