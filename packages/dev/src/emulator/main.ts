import { parseArgs } from 'node:util';
import { EMULATOR_CREDENTIAL } from './emulator-credential.ts';
import { startEmulator } from './start-emulator.ts';

/** `npm run emulator [-- --port N --host H]`: the emulator on its own, for manual tests and other clients. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '8788' }, host: { type: 'string', default: '127.0.0.1' } },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port: expected a whole number from 0 to 65535, got ${JSON.stringify(values.port)}\n`);
    process.exit(1);
  }
  const emulator = await startEmulator({ host: values.host, port });
  process.stdout.write(
    [
      `Workforce API emulator listening on ${emulator.url}`,
      `  token:        POST ${emulator.url}/api/servicesecurity/processes/apikey/oauth/token?grant_type=client_credentials&scopes=employer`,
      `  credential:   key ${EMULATOR_CREDENTIAL.key}, secret ${EMULATOR_CREDENTIAL.secret} (HTTP Basic)`,
      `  control API:  ${emulator.url}/control (assignments, credentials, requests, faults, clock, settings, reset)`,
      '',
    ].join('\n'),
  );
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`The emulator could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
