import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createCleaningGate } from './cleaning-gate.ts';
import { cleaningChildSource, type DecodingAnswer, type DecodingJob } from './cleaning-child.ts';

/** How many files are decoded at once, in how much memory, and for how long each at most (docs/configuration.md#uploads). */
export interface CleaningPoolSettings {
  processes: number;
  /** The most memory the decodings running at once are estimated to hold (upload-cleaning.ts estimates each). */
  memoryBytes: number;
  timeoutMs: number;
}

/** A decoding's answer, or why it has none: stopped at its deadline, or its process ended under it. */
export type PoolAnswer = DecodingAnswer | { ok: false; reason: 'deadline' | 'crashed' };

export interface CleaningPool {
  /**
   * Decodes a file for a task in a process of the pool, when the task's turn comes and `memoryBytes`, its decoding's
   * estimated peak, fits beside the others' (cleaning-gate.ts).
   */
  run(key: string, job: DecodingJob, memoryBytes: number): Promise<PoolAnswer>;
  /** Starts the pool's processes now rather than with the first files: the server's idle memory is then its own. */
  warm(): void;
  /** Lets the running decodings finish, then ends every process; nothing runs after. */
  close(): Promise<void>;
}

interface PoolLog {
  warn(object: object, message: string): void;
}

/** A process's start: node and sharp loaded, ready for its first file. Longer is a fault of the machine. */
const START_BOUND_MS = 30_000;

/**
 * Received files are decoded in child processes, never in the server's (docs/api.md#uploads), `processes` at once.
 * A process, because a deadline must stop the work: libvips decodes on native threads of its own, which a worker
 * thread's `terminate()` leaves running, while a killed process takes them with it, and its memory. A decoding past
 * `timeoutMs` is killed and answered `deadline`; the next file gets a new process. A HEIC photo's process is ended after
 * it too, as libheif's WebAssembly memory, once grown for a photo (some 16 bytes a pixel), is never given back.
 *
 * The pool bounds the memory, by admission rather than by count: to turn a photo upright, sharp holds the whole decoded
 * image (a 12 MP phone photo stored sideways is 36 MB of pixels), and a HEIC photo is decoded whole, while an upright
 * JPEG is decoded and encoded a strip at a time; so each file waits until its estimated memory fits beside the
 * decodings running (cleaning-gate.ts, docs/development.md#benchmarks). Each process runs one decoding on one libvips
 * thread (cleaning-child.ts): the pool's processes are its parallelism. Processes start with the first files, or with
 * `warm()`, and stay, their IPC channels not holding the server's event loop open.
 */
export function createCleaningPool(settings: CleaningPoolSettings, log?: PoolLog): CleaningPool {
  const turn = createCleaningGate(settings.processes, settings.memoryBytes);
  const require = createRequire(import.meta.url);
  const modules = [require.resolve('sharp'), require.resolve('heic-decode')];
  const idle: ChildProcess[] = [];
  /** Processes `warm()` is starting, not yet idle: a file takes one of them before it starts another. */
  const warming: Promise<ChildProcess>[] = [];
  const alive = new Set<ChildProcess>();
  const running = new Set<Promise<unknown>>();
  let closed = false;

  const start = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ['-e', cleaningChildSource, ...modules], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    alive.add(child);
    child.once('exit', () => {
      alive.delete(child);
      if (idle.includes(child)) idle.splice(idle.indexOf(child), 1);
    });
    // An IPC message that cannot be sent (its process gone) is an 'error' event: its job is answered by the 'exit'.
    child.on('error', (error) => log?.warn({ err: error }, 'a cleaning process failed'));
    child.unref();
    child.channel?.unref();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`a cleaning process did not start within ${START_BOUND_MS} ms`)), START_BOUND_MS);
      const fail = (error: Error) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(error);
      };
      child.once('message', () => {
        clearTimeout(timer);
        child.off('exit', exited);
        child.off('error', fail);
        resolve();
      });
      const exited = (code: number | null, signal: string | null) =>
        fail(new Error(`a cleaning process ended at its start (${signal ?? code})`));
      child.once('exit', exited);
      child.once('error', fail);
    });
    return child;
  };

  const decode = (child: ChildProcess, job: DecodingJob) =>
    new Promise<PoolAnswer>((resolve) => {
      const done = (answer: PoolAnswer) => {
        clearTimeout(timer);
        child.off('message', answered);
        child.off('exit', ended);
        resolve(answer);
      };
      const answered = (answer: DecodingAnswer) => done(answer);
      const ended = (code: number | null, signal: string | null) => {
        log?.warn({ code, signal, kind: job.kind }, 'a cleaning process ended while decoding an upload');
        done({ ok: false, reason: 'crashed' });
      };
      // Killed with its native threads; the answer does not wait for its end.
      const timer = setTimeout(() => {
        log?.warn({ timeoutMs: settings.timeoutMs, kind: job.kind }, 'an upload took longer than its deadline to decode: stopped');
        child.kill('SIGKILL');
        done({ ok: false, reason: 'deadline' });
      }, settings.timeoutMs);
      child.once('message', answered);
      child.once('exit', ended);
      child.send(job);
    });

  const runInTurn = async (job: DecodingJob): Promise<PoolAnswer> => {
    if (closed) throw new Error('the cleaning pool is closed');
    const child = idle.pop() ?? (await (warming.shift() ?? start()));
    const answer = await decode(child, job);
    if (answer.ok || answer.reason === 'unreadable' || answer.reason === 'pictures' || answer.reason === 'pixels') {
      if (job.kind === 'heic' || closed) child.kill();
      else idle.push(child);
    }
    return answer;
  };

  return {
    async run(key, job, memoryBytes) {
      const work = turn(key, memoryBytes, () => runInTurn(job));
      running.add(work);
      try {
        return await work;
      } finally {
        running.delete(work);
      }
    },
    warm() {
      for (let index = alive.size; index < settings.processes; index += 1) {
        const starting = start();
        warming.push(starting);
        starting.then(
          (child) => {
            // Unless a file took it while it started (runInTurn).
            if (!warming.includes(starting)) return;
            warming.splice(warming.indexOf(starting), 1);
            if (closed) child.kill();
            else idle.push(child);
          },
          (error: unknown) => {
            if (warming.includes(starting)) warming.splice(warming.indexOf(starting), 1);
            if (!closed) log?.warn({ err: error }, 'a cleaning process did not start: the next file starts one');
          },
        );
      }
    },
    async close() {
      closed = true;
      await Promise.allSettled([...running]);
      const ends = [...alive].map((child) => new Promise((resolve) => child.once('exit', resolve)));
      for (const child of alive) child.kill();
      await Promise.all(ends);
    },
  };
}
