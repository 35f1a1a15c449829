import { describe, expect, it, onTestFinished } from 'vitest';
import { errorBodySchema } from '@partner-task-kit/workflow/contract/api-errors';
import { startTestServer } from '../helpers/test-server';

const METRICS_TOKEN = 'metrics-token-6f1d2c9a8b7e4d3c2b1a0f9e8d7c6b5a';

/** A server with a credential (not emulator mode) whose platform is nowhere: nothing here is delivered. */
const platformMode = {
  WX_API_KEY: 'metrics-test-key',
  WX_API_SECRET: 'metrics-test-secret',
  WX_AUTH_URL: 'http://127.0.0.1:9/auth',
  WX_BASE_URL: 'http://127.0.0.1:9/base',
  WX_TASK_BASE_URL: 'http://127.0.0.1:9/task',
  PORTAL_ORIGINS: 'https://portal.example.com',
  SESSION_SECRET: 'metrics-test-session-secret-0123456789ab',
  SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  WX_COMPANY_UUIDS: '8a1f6c2e-1b7d-4c3a-9e5f-2d4b6a8c0e1f',
};

async function contractErrorOf(response: Response) {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return errorBodySchema.parse(await response.json()).error;
}

describe('/metrics is for operators only', () => {
  it('is served by the listener of METRICS_PORT alone, on loopback, and is 404 on the public listener', async () => {
    const running = await startTestServer({ LOG_LEVEL: 'debug', METRICS_PORT: '0' });
    onTestFinished(() => running.close());
    expect(running.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.metricsUrl).not.toBe(running.url);

    const scraped = await fetch(`${running.metricsUrl}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await scraped.text()).toMatch(/^partner_task_outbox_pending\{lane="platform"\} 0$/m);

    const publicly = await fetch(`${running.url}/metrics`);
    expect(publicly.status).toBe(404);
    expect((await contractErrorOf(publicly)).code).toBe('not_found');
    // The operators' listener serves nothing else.
    expect((await contractErrorOf(await fetch(`${running.metricsUrl}/healthz`))).code).toBe('not_found');
  });

  it('asks for METRICS_TOKEN as a bearer token on the public listener, and never logs it', async () => {
    const running = await startTestServer({ LOG_LEVEL: 'debug', ...platformMode, METRICS_TOKEN });
    onTestFinished(() => running.close());
    expect(running.metricsUrl).toBeUndefined();

    const anonymous = await fetch(`${running.url}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect((await contractErrorOf(anonymous)).code).toBe('missing_token');

    const wrong = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect((await contractErrorOf(wrong)).code).toBe('invalid_token');
    const short = await fetch(`${running.url}/metrics`, { headers: { authorization: 'Bearer abc' } });
    expect((await contractErrorOf(short)).code).toBe('invalid_token');
    const basic = await fetch(`${running.url}/metrics`, { headers: { authorization: `Basic ${METRICS_TOKEN}` } });
    expect((await contractErrorOf(basic)).code).toBe('missing_token');

    const scraped = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^partner_task_outbox_pending\{lane="platform"\} 0$/m);

    const logs = running.logLines.join('\n');
    expect(logs).toContain('"url":"/metrics"');
    expect(logs).not.toContain(METRICS_TOKEN);
    expect(logs).not.toContain(METRICS_TOKEN.slice(0, -1));
  });

  it('asks for METRICS_TOKEN on the listener of METRICS_PORT too when both are set', async () => {
    const running = await startTestServer({ LOG_LEVEL: 'debug', METRICS_PORT: '0', METRICS_TOKEN });
    onTestFinished(() => running.close());
    expect((await fetch(`${running.metricsUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${running.metricsUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
    expect((await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
  });

  it('is not served at all outside emulator mode when neither METRICS_PORT nor METRICS_TOKEN is set', async () => {
    const running = await startTestServer({ LOG_LEVEL: 'debug', ...platformMode });
    onTestFinished(() => running.close());
    expect(running.config.warnings).toContainEqual(expect.stringMatching(/^METRICS_PORT and METRICS_TOKEN are unset/));
    const response = await fetch(`${running.url}/metrics`);
    expect(response.status).toBe(404);
    expect((await contractErrorOf(response)).code).toBe('not_found');
  });

  it('stays open on the public listener in emulator mode, for local development', async () => {
    const running = await startTestServer({ LOG_LEVEL: 'debug' });
    onTestFinished(() => running.close());
    expect((await fetch(`${running.url}/metrics`)).status).toBe(200);
  });
});
