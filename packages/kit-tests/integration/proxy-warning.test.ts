import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';
import { createLogger } from '@partner-task-kit/server/logger';
import { startServer, type RunningServer } from '@partner-task-kit/server/server';
import { testWorkflows } from '../helpers/test-workflows';

let directory: string;
let server: RunningServer | undefined;
let logLines: string[];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-proxy-'));
  logLines = [];
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(directory, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<RunningServer> {
  const parsed = parseConfig({ PORT: '0', DATABASE_URL: join(directory, 'proxy.db'), ...env });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString());
      callback();
    },
  });
  server = await startServer(parsed.config, { workflows: testWorkflows, log: createLogger('info', stream) });
  return server;
}

const proxyWarnings = () =>
  logLines
    .map((line) => JSON.parse(line) as { level: number; msg: string; proxyAddress?: string })
    .filter((line) => line.msg.includes('X-Forwarded-For'));

describe('a request through a proxy the server was not told about', () => {
  it('is warned about once per process, naming TRUST_PROXY and what it costs', async () => {
    const { url } = await start();
    await fetch(`${url}/healthz`);
    expect(proxyWarnings()).toEqual([]);
    for (const client of ['203.0.113.7', '198.51.100.23', '203.0.113.7']) {
      await fetch(`${url}/api/task`, { headers: { 'x-forwarded-for': client } });
    }
    const warnings = proxyWarnings();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
    expect(warnings[0]!.msg).toContain('TRUST_PROXY is unset');
    expect(warnings[0]!.msg).toContain('RATE_LIMIT_PER_ADDRESS');
    // The address to set TRUST_PROXY to: the proxy's own, the socket's.
    expect(warnings[0]!.proxyAddress).toBe('127.0.0.1');
  });

  it('is not warned about when TRUST_PROXY names the proxy', async () => {
    const { url } = await start({ TRUST_PROXY: '127.0.0.1' });
    await fetch(`${url}/api/task`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(proxyWarnings()).toEqual([]);
  });
});
