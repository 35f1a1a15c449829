import { describe, expect, it, onTestFinished } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server';

const proxyWarnings = (server: TestServer) =>
  server.logLines
    .map((line) => JSON.parse(line) as { level: number; msg: string; proxyAddress?: string })
    .filter((line) => line.msg.includes('X-Forwarded-For'));

describe('a request through a proxy the server was not told about', () => {
  it('is warned about once per process, naming TRUST_PROXY and what it costs', async () => {
    const server = await startTestServer();
    onTestFinished(() => server.close());
    const { url } = server;
    await fetch(`${url}/healthz`);
    expect(proxyWarnings(server)).toEqual([]);
    for (const client of ['203.0.113.7', '198.51.100.23', '203.0.113.7']) {
      await fetch(`${url}/api/task`, { headers: { 'x-forwarded-for': client } });
    }
    const warnings = proxyWarnings(server);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
    expect(warnings[0]!.msg).toContain('TRUST_PROXY is unset');
    expect(warnings[0]!.msg).toContain('RATE_LIMIT_PER_ADDRESS');
    // The address to set TRUST_PROXY to: the proxy's own, the socket's.
    expect(warnings[0]!.proxyAddress).toBe('127.0.0.1');
  });

  it('is not warned about when TRUST_PROXY names the proxy', async () => {
    const server = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
    onTestFinished(() => server.close());
    const { url } = server;
    await fetch(`${url}/api/task`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(proxyWarnings(server)).toEqual([]);
  });
});
