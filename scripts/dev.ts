import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { parseArgs } from 'node:util';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { parseConfig, readEnvironment } from '../server/config';
import { planDevServers } from './dev-environment';

/**
 * `npm run dev [-- --reset-emulator]`: Vite's dev server with hot reload for the page on PORT (8787 by default), and
 * behind it the server, restarted on change by tsx watch, on a free loopback port (dev-environment.ts). Two
 * checkouts run side by side with different PORTs. In emulator mode the emulator keeps its tasks in
 * data/emulator-<PORT>.db across the server's restarts; --reset-emulator starts it empty.
 */
const { values } = parseArgs({ options: { 'reset-emulator': { type: 'boolean', default: false } } });

const environment = readEnvironment();
const parsed = parseConfig(environment);
if (!parsed.ok) {
  process.stderr.write(`Configuration is invalid:\n${parsed.problems.map((problem) => `  ${problem}`).join('\n')}\n`);
  process.exit(1);
}
const config = parsed.config;
const plan = planDevServers(environment, config, await freePort(), config.port === 0 ? await freePort() : config.port);

if (values['reset-emulator'] && plan.emulatorStateFile !== undefined) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${plan.emulatorStateFile}${suffix}`, { force: true });
  process.stdout.write(`emulator state reset: ${plan.emulatorStateFile} removed\n`);
}

const serverUrl = `http://127.0.0.1:${plan.serverEnvironment.PORT}`;
const server = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'server/main.ts'], {
  stdio: 'inherit',
  env: plan.serverEnvironment,
});
// Vite once it exists: stopAll may run before (a signal, or the server exiting at once).
const running: { vite?: ViteDevServer } = {};
let stopping = false;
function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  if (server.exitCode === null) server.kill('SIGTERM');
  void running.vite?.close();
}
server.on('exit', (code) => stopAll(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stopAll(0));

// Vite in this process, on PORT, with vite.config.ts and the server's address for its proxy.
const vite = await createViteServer({
  configFile: 'vite.config.ts',
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
if (!stopping) {
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
function stopAfterFailure(error: unknown): never {
  const code = (error as { code?: unknown }).code;
  const reason =
    code === 'EADDRINUSE' || (error instanceof Error && /already in use/.test(error.message))
      ? `PORT ${plan.pagePort} is already in use: stop the program that holds it or set PORT to another port, e.g. PORT=${plan.pagePort + 10} npm run dev`
      : error instanceof Error
        ? error.message
        : String(error);
  process.stderr.write(`npm run dev could not start: ${reason}\n`);
  server.kill('SIGTERM');
  process.exit(1);
}

/** Whether the server answers /healthz within `timeoutMs` (false also when it exited, e.g. on bad configuration). */
async function serverAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && server.exitCode === null) {
    const ok = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
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
