import { spawn, type ChildProcess } from 'node:child_process';
import { parseConfig, readEnvironment } from '../server/config';

/**
 * `npm run dev`: the server (restarted on change by tsx watch) and Vite's dev server with hot reload for the page,
 * which forwards /api and /emulator to the server (vite.config.ts). The preview is then at http://localhost:5173.
 * The page is served from Vite's port, so that port's origins are added to PORTAL_ORIGINS: the end event is posted to
 * them and the preview receives it.
 */
const DEV_PAGE_PORT = 5173;
const devOrigins = [`http://localhost:${DEV_PAGE_PORT}`, `http://127.0.0.1:${DEV_PAGE_PORT}`];

const environment = readEnvironment();
const parsed = parseConfig(environment);
const serverEnvironment: Record<string, string | undefined> = { ...environment };
// With a real credential PORTAL_ORIGINS is required: never fill it in for the developer, only extend what they set.
if (parsed.ok && (parsed.config.emulatorMode || parsed.config.portalOrigins.length > 0)) {
  serverEnvironment.PORTAL_ORIGINS = [...parsed.config.portalOrigins, ...devOrigins].join(',');
}

const children: ChildProcess[] = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: serverEnvironment,
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--port', String(DEV_PAGE_PORT), '--strictPort'], { stdio: 'inherit' }),
];
process.stdout.write(`\n  preview portal with hot reload: http://localhost:${DEV_PAGE_PORT}/preview\n\n`);

let stopping = false;
function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stopAll(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stopAll(0));
