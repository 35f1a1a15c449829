import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './server-process';

/** The caddy on PATH (Debian's package puts it in /usr/bin), or undefined where there is none. */
export const caddyBinary: string | undefined = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((directory) => directory !== '')
  .map((directory) => join(directory, 'caddy'))
  .find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** The response header naming the instance that answered: the upstream's port, written by the proxy. */
export const UPSTREAM_HEADER = 'x-upstream-port';

export interface ProxyTimings {
  /** How often the proxy asks each instance's /readyz. */
  healthIntervalMs: number;
  /** How long a request may wait and be tried again while no instance can take it. */
  tryDurationMs: number;
}

/**
 * The Caddyfile of docs/deploying.md#without-containers on loopback, with shorter intervals: the active check on
 * /readyz, the passive one on a 503, and a request that could not reach one instance tried on the other. Caddy's
 * default policy (random), not round_robin: Debian's Caddy 2.6 answers a POST that finds no instance available 503 at
 * once, without waiting lb_try_duration, and round_robin's shared counter can pass over the one instance left when two
 * requests choose at once (docs/operations.md#rolling-upgrades).
 */
function caddyfile(port: number, upstreams: readonly number[], timings: ProxyTimings): string {
  return `{
	admin off
	auto_https off
}
http://127.0.0.1:${port} {
	reverse_proxy ${upstreams.map((upstream) => `127.0.0.1:${upstream}`).join(' ')} {
		lb_try_duration ${timings.tryDurationMs}ms
		lb_try_interval 100ms
		health_uri /readyz
		health_interval ${timings.healthIntervalMs}ms
		fail_duration 2s
		unhealthy_status 503
		header_down ${UPSTREAM_HEADER} {http.reverse_proxy.upstream.port}
	}
}
`;
}

export interface RunningProxy {
  url: string;
  /** Caddy's own log (JSON lines on standard error), for a failing test's message. */
  output(): string;
  /** SIGTERM, then its exit code; removes its directory. */
  stop(): Promise<number | null>;
}

/**
 * Starts Caddy in front of `upstreams` and waits until it answers through to one of them. Its home, data and
 * configuration directories are a temporary one of its own, and its admin endpoint is off, so two runs never meet.
 */
export async function startCaddy(binary: string, upstreams: readonly number[], timings: ProxyTimings): Promise<RunningProxy> {
  const directory = mkdtempSync(join(tmpdir(), 'ptk-caddy-'));
  const port = await freePort();
  const config = join(directory, 'Caddyfile');
  writeFileSync(config, caddyfile(port, upstreams, timings));
  const child = spawn(binary, ['run', '--config', config, '--adapter', 'caddyfile'], {
    env: { PATH: process.env.PATH ?? '', HOME: directory, XDG_DATA_HOME: directory, XDG_CONFIG_HOME: directory },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const proxy: RunningProxy = {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      rmSync(directory, { recursive: true, force: true });
      return code;
    },
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`caddy exited with ${child.exitCode}:\n${output}`);
    const answered = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return proxy;
    if (Date.now() > deadline) {
      await proxy.stop();
      throw new Error(`caddy did not answer within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
