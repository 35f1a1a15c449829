import { spawn, spawnSync } from 'node:child_process';

/** A container engine that answers, or why none does. */
export type EngineProbe = { ok: true; engine: ContainerEngine } | { ok: false; reason: string };

interface EngineResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** How long the command took, in milliseconds. */
  ms: number;
}

export interface ContainerEngine {
  readonly name: 'podman' | 'docker';
  /** Runs the engine with these arguments; never rejects on a non-zero exit, only when it cannot start. */
  run(args: readonly string[], timeoutMs?: number): Promise<EngineResult>;
  /** The same, failing with the command's output when it exits non-zero. */
  check(args: readonly string[], timeoutMs?: number): Promise<string>;
  /** `build` with the options this engine needs to keep the Dockerfile's HEALTHCHECK. */
  buildArgs(tag: string): string[];
}

/**
 * The first engine whose daemon or runtime answers `info`: a docker CLI without a daemon, or a podman that cannot run
 * here, is no engine. The reason names what each answered, for the skip message.
 */
export function probeContainerEngine(): EngineProbe {
  const reasons: string[] = [];
  for (const name of ['podman', 'docker'] as const) {
    const probe = spawnSync(name, ['info'], { encoding: 'utf8', timeout: 30_000 });
    if (probe.status === 0) return { ok: true, engine: engine(name) };
    const said = probe.error ? probe.error.message : (probe.stderr || probe.stdout).trim().split('\n').at(-1);
    reasons.push(`\`${name} info\` failed (${said ?? `exit ${probe.status}`})`);
  }
  return { ok: false, reason: `no container engine works here: ${reasons.join('; ')}` };
}

function engine(name: 'podman' | 'docker'): ContainerEngine {
  const run = (args: readonly string[], timeoutMs = 60_000) =>
    new Promise<EngineResult>((resolve, reject) => {
      const started = performance.now();
      const child = spawn(name, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, ms: performance.now() - started });
      });
    });
  return {
    name,
    run,
    async check(args, timeoutMs) {
      const result = await run(args, timeoutMs);
      if (result.code !== 0) {
        const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-40).join('\n');
        throw new Error(`${name} ${args.join(' ')} exited with ${result.code}:\n${output}`);
      }
      return result.stdout.trim();
    },
    // podman's default OCI image format has no HEALTHCHECK; --jobs 2 builds the two npm ci stages side by side.
    buildArgs: (tag) => (name === 'podman' ? ['build', '--format', 'docker', '--jobs', '2', '-t', tag, '.'] : ['build', '-t', tag, '.']),
  };
}
