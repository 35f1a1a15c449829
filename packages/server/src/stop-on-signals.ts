import type { Logger } from './logger.ts';
import type { RunningServer } from './server.ts';

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

interface StopOptions {
  /** SHUTDOWN_GRACE_MS: how long every route but `/readyz` is still served after the first signal. */
  graceMs: number;
  log: Logger;
  /** Ends the process with this code once the server has closed. */
  exit: (code: number) => void;
}

/**
 * The stop an orchestrator expects (docs/operations.md#start-and-stop): at the first SIGTERM or SIGINT readiness turns
 * 503 at once, and the server goes on serving for the grace so the proxy, which polls readiness, stops sending it work
 * before the listener closes; then it stops accepting, finishes the requests and deliveries in flight, closes the
 * database and exits 0. A second signal during the grace skips the rest of it (a person at the terminal pressing
 * Ctrl-C again); one after it changes nothing, so the deliveries in flight are still recorded.
 */
export function stopOnSignals(server: Pick<RunningServer, 'drain' | 'close'>, options: StopOptions): void {
  const { graceMs, log, exit } = options;
  let stage: 'running' | 'grace' | 'closing' = 'running';
  let endGrace = () => {};

  const close = () => {
    stage = 'closing';
    log.info('shutting down: no new connections; finishing the requests and deliveries in flight');
    void server.close().then(
      () => exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stage === 'running') {
      stage = 'grace';
      server.drain();
      if (graceMs === 0) {
        log.info({ signal }, 'shutting down: readiness is 503');
        close();
        return;
      }
      log.info({ signal, graceMs }, `shutting down: readiness is 503; still serving for ${graceMs} ms (SHUTDOWN_GRACE_MS)`);
      const timer = setTimeout(close, graceMs);
      endGrace = () => {
        clearTimeout(timer);
        close();
      };
    } else if (stage === 'grace') {
      log.info({ signal }, 'shutting down: a second signal ends the grace now');
      endGrace();
    } else {
      log.info({ signal }, 'already shutting down: finishing the deliveries in flight');
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
}
