import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { fetchToken, WORKERS_PATH } from './emulator-client';

describe('emulator: npm run emulator', () => {
  it('listens on the given host and port and prints the address and the credential', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/dev/src/emulator/main.ts', '--port', '0', '--host', '127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match?.[1] !== undefined && output.includes('secret')) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`the emulator exited with ${String(code)}: ${output}`)));
      });
      expect(output).toContain('key emulator-key, secret emulator-secret');
      const token = await fetchToken(url);
      expect((await fetch(`${url}${WORKERS_PATH}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });

  it('refuses a port that is not a number', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/dev/src/emulator/main.ts', '--port', 'eighty'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(errors).toContain('--port');
  });
});
