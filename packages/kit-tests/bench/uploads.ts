import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openSessions } from './api-load';
import { benchProgress, machine, median, round } from './bench-support';
import { productionLikeEnv, startServerProcess } from './bench-server-process';
import { memoryKb, sampleChildren, treeCpuMs } from './process-tree';
import { uploadOne, statusOf } from './upload-one';
import { BENCH_UPLOAD_MAX_BYTES } from './upload-field';
import { phonePhoto, scanBombSample, scannedPdf, smallPhoto, type UploadSample } from './upload-samples';

const progress = benchProgress('uploads');

/**
 * `node --import tsx packages/kit-tests/bench/uploads.ts` (suite `uploads`): ten 10 MB files uploaded at once with tus-js-client, in
 * chunks of 1 MB as the page sends them (packages/page/src/api/file-uploads.ts), each by its own task's session, to the kit's server
 * (compiled, as `npm start` runs it, SQLite and its uploads directory in a temporary directory); and the same ten to a
 * bare @tus/server writing through the same FileStore to the same disk (packages/kit-tests/bench/bare-tus-server.ts). Both run in
 * processes of their own, started the same way, one after the other, in alternating order run after run; each run
 * starts fresh servers and sends two batches of ten: the first to a server that has taken no upload (its one-time
 * costs included), the next to the same server, warm; and, for a photo, a third ten to the kit's server with a scan
 * bomb sent beside them by another task (packages/kit-tests/bench/upload-samples.ts), to see the ten's time with it and
 * without. The RSS and CPU are the server's with its child processes (the kit's cleaning pool, cleaning-pool.ts): the
 * RSS read from /proc when a batch starts, its peak the server's (VmHWM, reset just before) when its last upload is
 * answered, plus the most memory of its own each child held meanwhile (sampleChildren): peaks added up, so no less
 * than the whole tree's, but for what a child grows within one 25 ms sample. Throughput is the bytes of a batch over the time from its first
 * request to its last answer: for the kit, that answer comes after the file is checked and cleaned. Beside them, one
 * cleaning alone in a process of its own (packages/kit-tests/bench/cleaning-alone.ts): the floor of both, of the
 * throughput (the bare server's time, and the ten cleaned as fast as one alone, as many at once as the pool's
 * processes and memory take) and of cleaning's CPU (the kit's per upload less the bare server's). In the warm batch of
 * photos, a small photo is sent by an eleventh task once the ten's bytes are in: its answer's time and rank.
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    uploads: { type: 'string', default: '10' },
    files: { type: 'string', default: 'jpeg,pdf' },
    'chunk-kb': { type: 'string', default: '1024' },
    'max-seconds': { type: 'string', default: '900' },
  },
});
const runs = Number(values.runs);
/** The kit's pool of cleaning processes and its memory, as a server sizes them by default (docs/configuration.md#uploads). */
const cleaningProcesses = Math.min(4, availableParallelism());
const cleaningMemoryBytes = 56 * 1024 * 1024;
const count = Number(values.uploads);
const chunkBytes = Number(values['chunk-kb']) * 1024;
const bound = setTimeout(
  () => {
    progress(`over its bound of ${values['max-seconds']} s: stopped`);
    process.exit(1);
  },
  Number(values['max-seconds']) * 1000,
);
bound.unref();

type Side = 'kit' | 'bare';
interface Batch {
  seconds: number;
  rssBeforeMb: number;
  rssRiseMb: number;
  serverCpuMsPerUpload: number;
}
interface SideRun {
  first: Batch;
  /** For a photo, with a small one (upload-samples.ts) sent by an eleventh task once the ten's bytes are in. */
  warm: Batch & { small?: { seconds: number; rank: number } };
  /** The kit's, for a photo: the same ten again, a scan bomb of another task's beside them. */
  withBomb?: Batch & { bombAnswer: number; bombSeconds: number };
}
type CleaningAlone = Record<'rssRiseMb' | 'cpuMs' | 'wallMs', number>;

const directory = mkdtempSync(join(tmpdir(), 'ptk-bench-uploads-'));
try {
  const photo = await phonePhoto();
  const bomb = await scanBombSample();
  const small = await smallPhoto();
  const samples: Record<string, UploadSample> = {
    jpeg: photo,
    'jpeg-upright': await phonePhoto({ upright: true }),
    pdf: scannedPdf(photo.bytes.length),
  };
  for (const kind of values.files.split(',')) {
    const sample = samples[kind];
    if (!sample) throw new Error(`--files: ${kind} is not one of ${Object.keys(samples).join(', ')}`);
    if (sample.bytes.length > BENCH_UPLOAD_MAX_BYTES) throw new Error(`the ${kind} sample is over the field's limit`);
    const samplePath = join(directory, `sample-${kind}`);
    writeFileSync(samplePath, sample.bytes);
    const sides: Record<Side, SideRun[]> = { kit: [], bare: [] };
    const alone: CleaningAlone[] = [];
    for (let run = 0; run < runs; run += 1) {
      const order: Side[] = run % 2 === 0 ? ['kit', 'bare'] : ['bare', 'kit'];
      for (const side of order) {
        const beside = side === 'kit' && kind !== 'pdf' ? bomb : undefined;
        const result = await runOnce(side, sample, join(directory, `${kind}-${run}-${side}`), beside, kind === 'pdf' ? undefined : small);
        sides[side].push(result);
        for (const [name, batch] of Object.entries(result))
          progress(
            `${kind} run ${run + 1}, ${side}, ${name} ten: ${megabytesPerSecond(sample, batch)} MB/s, RSS ${batch.rssBeforeMb} MB +${batch.rssRiseMb}, ` +
              `server CPU ${batch.serverCpuMsPerUpload} ms per upload` +
              ('bombAnswer' in batch ? `; the bomb answered ${batch.bombAnswer} after ${round(batch.bombSeconds, 2)} s` : ''),
          );
      }
      alone.push(cleanAlone(samplePath));
      progress(`${kind} run ${run + 1}, one cleaning alone: RSS +${alone.at(-1)!.rssRiseMb} MB, ${alone.at(-1)!.wallMs} ms`);
    }
    const batches = (side: Side, name: 'first' | 'warm') => sides[side].map((each) => each[name]);
    const figures = (side: Side, name: 'first' | 'warm') => ({
      megabytesPerSecond: batches(side, name).map((batch) => megabytesPerSecond(sample, batch)),
      rssBeforeMb: batches(side, name).map((batch) => batch.rssBeforeMb),
      rssRiseMb: batches(side, name).map((batch) => batch.rssRiseMb),
      serverCpuMsPerUpload: batches(side, name).map((batch) => batch.serverCpuMsPerUpload),
    });
    // Of warm servers, so that neither side's one-time costs weigh on the ratio.
    const ratios = sides.kit.map((kit, index) => round(sides.bare[index]!.warm.seconds / kit.warm.seconds, 2));
    // The kit cannot answer before the bytes are in (the bare server's time at best) and the ten files are cleaned, so
    // many at a time as the pool's processes and memory take (cleaning-gate.ts): with cleanings as fast as one alone,
    // the ratio could reach this and no more.
    // How many fit in the pool's memory bound, by what one cleaning alone was seen to take.
    const aloneRiseMb = median(alone.map((each) => each.rssRiseMb));
    const fitting = aloneRiseMb > 0 ? Math.floor(cleaningMemoryBytes / (aloneRiseMb * 1024 * 1024)) : cleaningProcesses;
    const atOnce = Math.max(1, Math.min(cleaningProcesses, fitting));
    const floorSeconds = sides.bare.map((bare, index) => bare.warm.seconds + (Math.ceil(count / atOnce) * alone[index]!.wallMs) / 1000);
    const ceilings = sides.bare.map((bare, index) => round(bare.warm.seconds / floorSeconds[index]!, 2));
    // What cleaning adds to an upload's CPU (the kit's server and pool, less the bare server's), over one alone's.
    const cpuOverFloor = sides.kit.map((kit, index) =>
      round((kit.warm.serverCpuMsPerUpload - sides.bare[index]!.warm.serverCpuMsPerUpload) / alone[index]!.cpuMs, 2),
    );
    console.log(
      JSON.stringify({
        suite: 'uploads',
        file: kind,
        description: sample.description,
        fileBytes: sample.bytes.length,
        uploads: count,
        chunkBytes,
        runs,
        cleaningProcesses,
        cleaningMemoryMb: cleaningMemoryBytes / 1024 / 1024,
        cleaningAtOnce: atOnce,
        kit: { first: figures('kit', 'first'), warm: figures('kit', 'warm') },
        ...(sides.kit.every((each) => each.withBomb)
          ? {
              scanBomb: {
                description: bomb.description,
                fileBytes: bomb.bytes.length,
                photosSecondsWithout: sides.kit.map((each) => round(each.warm.seconds, 2)),
                photosSecondsWith: sides.kit.map((each) => round(each.withBomb!.seconds, 2)),
                bombAnswers: sides.kit.map((each) => each.withBomb!.bombAnswer),
                bombSeconds: sides.kit.map((each) => round(each.withBomb!.bombSeconds, 2)),
                rssRiseMb: sides.kit.map((each) => each.withBomb!.rssRiseMb),
              },
            }
          : {}),
        bare: { first: figures('bare', 'first'), warm: figures('bare', 'warm') },
        cleaningAlone: {
          rssRiseMb: alone.map((each) => each.rssRiseMb),
          cpuMs: alone.map((each) => each.cpuMs),
          wallMs: alone.map((each) => each.wallMs),
        },
        ratios,
        ratioMedian: median(ratios),
        ratioCeilings: ceilings,
        // The kit's throughput over the floor's: the bare server's time and the ten cleaned as fast as one alone.
        floorRatios: sides.kit.map((kit, index) => round(floorSeconds[index]! / kit.warm.seconds, 2)),
        cleaningCpuOverFloor: cpuOverFloor,
        ...(sides.kit.every((each) => each.warm.small)
          ? {
              smallPhoto: {
                description: small.description,
                fileBytes: small.bytes.length,
                kitSeconds: sides.kit.map((each) => round(each.warm.small!.seconds, 2)),
                kitRanks: sides.kit.map((each) => each.warm.small!.rank),
                bareRanks: sides.bare.map((each) => each.warm.small!.rank),
              },
            }
          : {}),
        // What an operator sizes memory by: the kit's peak over both batches above the server idle before them.
        rssAboveIdleMb: sides.kit.map(({ first, warm }) =>
          Math.max(first.rssRiseMb, warm.rssBeforeMb + warm.rssRiseMb - first.rssBeforeMb),
        ),
        machine: machine(),
      }),
    );
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}

/** One fresh server of one side, and two batches of uploads at once to it (three with a bomb beside the last). */
async function runOnce(
  side: Side,
  sample: UploadSample,
  runDirectory: string,
  bomb?: UploadSample,
  small?: UploadSample,
): Promise<SideRun> {
  mkdirSync(runDirectory, { recursive: true });
  const env: Record<string, string> =
    side === 'kit'
      ? {
          DATABASE_URL: join(runDirectory, 'bench.db'),
          // No platform is called: the relay is not part of the upload server (packages/kit-tests/bench/upload-server.ts).
          ...productionLikeEnv({
            emulatorUrl: 'http://127.0.0.1:9',
            metricsToken: randomBytes(32).toString('base64url'),
            logLevel: 'info',
          }),
          UPLOAD_CLEANING_PROCESSES: String(cleaningProcesses),
          UPLOAD_CLEANING_MEMORY_MB: String(cleaningMemoryBytes / 1024 / 1024),
        }
      : { BENCH_TUS_DIRECTORY: runDirectory };
  const entry = side === 'kit' ? 'packages/kit-tests/bench/upload-server.ts' : 'packages/kit-tests/bench/bare-tus-server.ts';
  const server = await startServerProcess(env, { compiled: true, entry });
  try {
    const endpoint = side === 'kit' ? `${server.url}/api/task/uploads` : `${server.url}/files`;
    const batch = async (beside?: UploadSample, smallOne?: UploadSample) => {
      // One task per upload, as ten workers would send them; the bare server takes any request.
      const tasks = count + 2;
      const headers =
        side === 'kit'
          ? (await openSessions(server.url, tasks)).map((token) => ({ authorization: `Bearer ${token}` }))
          : Array.from({ length: tasks }, () => ({}));
      const pid = server.child.pid!;
      // Writing 5 to clear_refs sets VmHWM back to VmRSS: from here it is the peak of this batch alone.
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      const children = sampleChildren(pid);
      const rssBeforeKb = memoryKb(pid, 'VmRSS') + children.nowKb();
      const cpuBefore = treeCpuMs(pid);
      const started = performance.now();
      // Sent first, from a task of its own, so that the ten come while it is checked; its answer timed on its own.
      const answered = (status: number) => ({ status, seconds: (performance.now() - started) / 1000 });
      const bombAnswer =
        beside &&
        uploadOne(endpoint, beside.bytes, headers[count]!, chunkBytes).then(
          () => answered(204),
          (error: unknown) => answered(statusOf(error)),
        );
      // The small photo is sent once the ten's last bytes are: they are all being checked or waiting for their turn.
      const sent = new Set<number>();
      let allSent!: () => void;
      const tenSent = new Promise<void>((resolve) => (allSent = resolve));
      const answers: string[] = [];
      const onSent = (index: number) => () => sent.add(index).size === count && allSent();
      const ten = headers
        .slice(0, count)
        .map((each, index) => uploadOne(endpoint, sample.bytes, each, chunkBytes, onSent(index)).then(() => answers.push(`${index}`)));
      const smallAnswer =
        smallOne &&
        tenSent
          .then(() => uploadOne(endpoint, smallOne.bytes, headers[count + 1]!, chunkBytes))
          .then(() => ({ seconds: (performance.now() - started) / 1000, rank: answers.push('small') }));
      await Promise.all(ten);
      const seconds = (performance.now() - started) / 1000;
      const rssPeakKb = memoryKb(pid, 'VmHWM') + children.stop();
      const figures: Batch = {
        seconds,
        rssBeforeMb: round(rssBeforeKb / 1024, 0),
        rssRiseMb: round((rssPeakKb - rssBeforeKb) / 1024, 0),
        serverCpuMsPerUpload: round((treeCpuMs(pid) - cpuBefore) / count, 0),
      };
      const bombAnswered = await bombAnswer;
      const smallAnswered = await smallAnswer;
      return {
        ...figures,
        bombAnswer: bombAnswered?.status ?? 0,
        bombSeconds: bombAnswered?.seconds ?? 0,
        ...(smallAnswered ? { small: { seconds: smallAnswered.seconds, rank: smallAnswered.rank } } : {}),
      };
    };
    const batchOf = async (smallOne?: UploadSample): Promise<SideRun['warm']> => {
      const { bombAnswer: _answer, bombSeconds: _seconds, ...figures } = await batch(undefined, smallOne);
      return figures;
    };
    const first = await batchOf();
    const warm = await batchOf(small);
    return bomb ? { first, warm, withBomb: await batch(bomb) } : { first, warm };
  } finally {
    await server.stop();
    rmSync(runDirectory, { recursive: true, force: true });
  }
}

function cleanAlone(samplePath: string): CleaningAlone {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'packages/kit-tests/bench/cleaning-alone.ts', samplePath], {
    encoding: 'utf8',
  });
  return JSON.parse(output) as CleaningAlone;
}

function megabytesPerSecond(sample: UploadSample, batch: Batch): number {
  return round((count * sample.bytes.length) / 1024 / 1024 / batch.seconds, 1);
}
