import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import { probeContainerEngine, type ContainerEngine } from '../helpers/container-engine';
import { freePort, platformEnv } from '../helpers/server-process';
import { testPostgresUrl } from '../helpers/test-databases';

/**
 * The production image as docs/deploying.md#the-container runs it: built from this checkout's Dockerfile, started on
 * a fresh Postgres database in platform mode against an emulator in this process (the container shares the host's
 * network, so it reaches both over loopback), then stopped as a runtime stops it.
 */

const MB = 1_000_000;
/** The image's budget, in the unit `podman images` and `docker images` print. */
const MAX_IMAGE_BYTES = 300 * MB;
/**
 * The official node:20-bookworm-slim is no larger than this (docs/deploying.md#the-image). A machine that cannot
 * pull builds on a stand-in that also carries a compiler: there the image is judged as it will be on the official one.
 */
const OFFICIAL_BASE_BYTES = 220 * MB;
const BASE_IMAGE = 'node:20-bookworm-slim';

/**
 * Run by the image's node in the running container: the HEIC photo of packages/kit-tests/fixtures/heic (64x32, turned a quarter
 * by its irot, with EXIF and a GPS position) decoded by heic-decode (libheif in WebAssembly), resolved from the bundled
 * server's place as packages/server/src/uploads/cleaning-pool.ts resolves it, then encoded by sharp (libvips, a native binary of the
 * image's platform) to a JPEG: what docs/api.md#uploads does to a HEIC photo.
 */
const imageCodeCheck = `
import { createRequire } from 'node:module';
import sharp from 'sharp';
const require = createRequire('/app/build/server/main.mjs');
const decode = require(require.resolve('heic-decode'));
const { width, height, data } = await decode({ buffer: Buffer.from(process.argv[1], 'base64') });
const jpeg = await sharp(Buffer.from(data.buffer), { raw: { width, height, channels: 4 } }).jpeg().toBuffer();
const kept = await sharp(jpeg).metadata();
console.log(JSON.stringify({ format: kept.format, width: kept.width, height: kept.height, exif: kept.exif !== undefined }));
`;

/**
 * Strings of @partner-task-kit/dev's own code, each from the module named (checked there below, so a change to one
 * fails here rather than passing unseen): none may be in the image's page or server, which a production install runs
 * without the dev tools (docs/deploying.md#the-image).
 */
const devCodeMarkers = [
  { module: 'packages/dev/src/preview/preview-route.tsx', marker: 'Preview portal · partner-task-kit' },
  { module: 'packages/dev/src/emulator/emulator-plugin.ts', marker: 'could not save the emulator state' },
  { module: 'packages/dev/src/partner-backend/offer-stand-in.ts', marker: 'the stand-in answers an error' },
];

/** Run by the image's node: whether the dev package is installed, and which markers its page and server hold. */
const devCodeCheck = `
import { existsSync, readdirSync, readFileSync } from 'node:fs';
const markers = JSON.parse(process.argv[1]);
const files = ['/app/dist', '/app/build/server'].flatMap((dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.parentPath + '/' + entry.name));
const found = markers.filter((marker) => files.some((file) => readFileSync(file, 'latin1').includes(Buffer.from(marker).toString('latin1'))));
console.log(JSON.stringify({ devInstalled: existsSync('/app/node_modules/@partner-task-kit/dev'), files: files.length, found }));
`;

const probe = probeContainerEngine();
const suffix = randomBytes(6).toString('hex');
const tag = `localhost/partner-task-kit:test-${suffix}`;
const container = `ptk-image-test-${suffix}`;
const database = `ptk_image_${suffix}`;

let engine: ContainerEngine | undefined;
let emulator: RunningEmulator | undefined;
let databaseCreated = false;

/** Runs one statement on the test cluster's maintenance connection (CREATE and DROP DATABASE cannot run in a transaction). */
async function onCluster(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  if (engine) {
    await engine.run(['rm', '--force', container]);
    await engine.run(['rmi', '--force', tag]);
  }
  await emulator?.close();
  // WITH (FORCE): a container killed half-way may not have closed its connections yet.
  if (databaseCreated) await onCluster(`drop database if exists "${database}" with (force)`);
}, 60_000);

async function status(url: string): Promise<number> {
  return fetch(url).then(
    (response) => response.status,
    () => 0,
  );
}

describe('the container image', () => {
  it(
    'builds, runs as a non-root user on Postgres, delivers to the platform, and stops on SIGTERM with exit code 0',
    async ({ skip, annotate }) => {
      if (!probe.ok) return skip(probe.reason);
      engine = probe.engine;
      const { check, run } = engine;

      // The build compiles better-sqlite3 (about 90 s, twice: the build's and the production dependencies) when its
      // layers are not cached yet, and builds the page.
      const build = await run(engine.buildArgs(tag), 15 * 60_000);
      expect(build.code, `${build.stdout}\n${build.stderr}`.split('\n').slice(-40).join('\n')).toBe(0);

      const [imageBytes, baseBytes] = await Promise.all(
        [tag, BASE_IMAGE].map(async (image) => Number(await check(['image', 'inspect', '--format', '{{.Size}}', image]))),
      );
      const added = imageBytes! - baseBytes!;
      expect(added + Math.min(baseBytes!, OFFICIAL_BASE_BYTES), `image ${imageBytes} B, base ${baseBytes} B`).toBeLessThanOrEqual(
        MAX_IMAGE_BYTES,
      );
      expect(await check(['image', 'inspect', '--format', '{{.Config.User}}', tag])).toBe('node');
      const inMb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
      await annotate(
        `image ${inMb(imageBytes!)}: ${inMb(added)} on a base of ${inMb(baseBytes!)}; build ${(build.ms / 1000).toFixed(0)} s`,
      );

      // No dev tools: neither the package nor any of its code in the built page (the preview) or server (the emulator,
      // the stand-in), so emulator mode is refused at the start with what to do, even where production allows it.
      const repository = join(import.meta.dirname, '../../..');
      for (const { module, marker } of devCodeMarkers) expect(readFileSync(join(repository, module), 'utf8')).toContain(marker);
      const markers = JSON.stringify(devCodeMarkers.map(({ marker }) => marker));
      const devCode = await check(['run', '--rm', '--entrypoint', 'node', tag, '--input-type=module', '--eval', devCodeCheck, markers]);
      const { devInstalled, files, found } = JSON.parse(devCode) as { devInstalled: boolean; files: number; found: string[] };
      expect({ devInstalled, found }).toEqual({ devInstalled: false, found: [] });
      // Searched for real: the page's scripts, styles and pages, and the server's bundle with its map.
      expect(files).toBeGreaterThan(10);
      const emulatorMode = await run(['run', '--rm', '--network', 'none', '--env', 'ALLOW_EMULATOR_IN_PRODUCTION=true', tag], 60_000);
      expect(emulatorMode.code, `${emulatorMode.stdout}\n${emulatorMode.stderr}`).toBe(1);
      expect(`${emulatorMode.stdout}\n${emulatorMode.stderr}`).toContain(
        'emulator mode (no WX_API_KEY, no CREDENTIALS_KEY) needs @partner-task-kit/dev, which is not installed',
      );

      emulator = await startEmulator();
      await onCluster(`create database "${database}"`);
      databaseCreated = true;
      const port = await freePort();
      const environment = {
        ...platformEnv(emulator.url),
        DATABASE_URL: databaseUrl(database),
        PORT: String(port),
        // The host's network: loopback only, not every interface of this machine.
        HOST: '127.0.0.1',
      };
      // As compose.yaml runs it: a read-only root, no capabilities, no privilege gain.
      await check([
        'run',
        '--detach',
        '--name',
        container,
        '--network',
        'host',
        '--read-only',
        '--cap-drop',
        'ALL',
        '--security-opt',
        'no-new-privileges',
        ...Object.entries(environment).flatMap(([name, value]) => ['--env', `${name}=${value}`]),
        tag,
      ]);
      const logs = async () => {
        const result = await run(['logs', container]);
        return `${result.stdout}\n${result.stderr}`;
      };

      const url = `http://127.0.0.1:${port}`;
      await expect
        .poll(() => status(`${url}/readyz`), { timeout: 60_000, interval: 250 })
        .toBe(200)
        .catch(async (error: unknown) => {
          throw new Error(`${String(error)}\n${await logs()}`);
        });

      // Process 1 is node itself (exec form), and not root.
      const processOne = await check(['exec', container, 'cat', '/proc/1/status', '/proc/1/cmdline']);
      expect(processOne).toMatch(/^Name:\s+node$/m);
      const uid = /^Uid:\s+(\d+)/m.exec(processOne)?.[1];
      expect(uid).toBeDefined();
      expect(Number(uid)).not.toBe(0);

      // The image's native and WebAssembly image code loads and works there, as the server's user on a read-only root.
      const heic = readFileSync(join(import.meta.dirname, '../fixtures/heic/sideways.heic')).toString('base64');
      const converted = await check(['exec', container, 'node', '--input-type=module', '--eval', imageCodeCheck, heic]);
      expect(JSON.parse(converted)).toEqual({ format: 'jpeg', width: 32, height: 64, exif: false });

      // The image's HEALTHCHECK, which the runtime would run on its own schedule.
      if (engine.name === 'podman') await check(['healthcheck', 'run', container]);
      else {
        await expect
          .poll(async () => check(['inspect', '--format', '{{.State.Health.Status}}', container]), { timeout: 90_000, interval: 1000 })
          .toBe('healthy');
      }

      // The page is in the image, and an update of a new task reaches the platform from inside the container.
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const task = {
        wxWorkerUuid: randomUUID(),
        wxAssignedTaskUuid: randomUUID(),
        wxTaskFlowUuid: randomUUID(),
        wxCompanyUuid: randomUUID(),
      };
      const session = await fetch(`${url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(task),
      });
      expect(session.status, await logs()).toBe(200);
      await expect
        .poll(() => emulator!.state.assignments.get(task.wxAssignedTaskUuid)?.trail.some((entry) => entry.kind === 'partner'), {
          timeout: 20_000,
        })
        .toBe(true);

      // `stop` sends SIGTERM and, 10 s later, SIGKILL (exit code 137): the server must be gone before, on its own.
      const stop = await run(['stop', '--time', '10', container], 30_000);
      expect(stop.code, stop.stderr).toBe(0);
      expect(stop.ms).toBeLessThan(10_000);
      await annotate(`stopped in ${(stop.ms / 1000).toFixed(1)} s`);
      const exitCode = await check(['inspect', '--format', '{{.State.ExitCode}}', container]);
      expect(exitCode, await logs()).toBe('0');
    },
    20 * 60_000,
  );
});
