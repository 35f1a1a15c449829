import { fork, type ChildProcess } from 'node:child_process';

export interface ReceiverCounts {
  requests: number;
  /** The connections those requests came on: with keep-alive, how many requests the sender had under way at most. */
  connections: number;
}

export interface BareReceiver {
  /** Where to POST the events. */
  url: string;
  child: ChildProcess;
  counts(): Promise<ReceiverCounts>;
  /** Counts from zero again. */
  reset(): Promise<ReceiverCounts>;
  stop(): Promise<void>;
}

/** packages/kit-tests/bench/bare-receiver.ts in a child process: a partner's backend that costs the sender nothing but the HTTP. */
export async function spawnBareReceiver(): Promise<BareReceiver> {
  const child = fork('packages/kit-tests/bench/bare-receiver.ts', {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const failed = (code: number | null) => reject(new Error(`the bare receiver exited with ${code}`));
      child.once('exit', failed);
      child.once('message', (message) => {
        child.off('exit', failed);
        resolve(message as T);
      });
    });
  const { url } = await next<{ url: string }>();
  const ask = (what: string) => {
    const answer = next<ReceiverCounts>();
    child.send({ ask: what });
    return answer;
  };
  return {
    url,
    child,
    counts: () => ask('counts'),
    reset: () => ask('reset'),
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
