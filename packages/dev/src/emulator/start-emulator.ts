import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import type { AdjustableClock, EmulatorOptions } from './emulator-options.ts';
import { emulatorPlugin } from './emulator-plugin.ts';
import { EmulatorState } from './emulator-state.ts';

export interface StartEmulatorOptions extends EmulatorOptions {
  /** Default 127.0.0.1: loopback only. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
}

export interface RunningEmulator {
  /** The base address, e.g. http://127.0.0.1:41234, without a trailing slash: {auth_url}, {base_url} and {task_base_url}. */
  url: string;
  /** The in-process handle on the emulator's assignments, tokens, request log, faults and settings. */
  state: EmulatorState;
  clock: AdjustableClock;
  close(): Promise<void>;
}

/** Runs an emulator on its own HTTP server (tests, `npm run emulator`). */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const { host = '127.0.0.1', port = 0, ...emulatorOptions } = options;
  const state = new EmulatorState(emulatorOptions);
  const app = Fastify({ logger: false });
  await app.register(emulatorPlugin, { state });
  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  return {
    url: `http://${urlHost(host, address.family)}:${address.port}`,
    state,
    clock: state.clock,
    close: async () => {
      await app.close();
      state.close();
    },
  };
}

/** A host usable in a URL: a wildcard address is reached through loopback, and IPv6 goes in brackets. */
function urlHost(host: string, family: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return family === 'IPv6' || host.includes(':') ? `[${host}]` : host;
}
