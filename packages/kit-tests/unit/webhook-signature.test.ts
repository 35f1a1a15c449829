import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { partnerWebhookSender } from '@partner-task-kit/server/delivery/partner-webhook-sender';
import { signWebhook, webhookKeyOf } from '@partner-task-kit/server/delivery/webhook-signature';
import { parseConfig } from '@partner-task-kit/server/config';
import type { OutboxUpdate } from '@partner-task-kit/server/store/outbox.table';
import { createHttpTransport } from '@partner-task-kit/server/upstream/http-transport';
import { ManualClock } from '../helpers/manual-clock';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function headersOf(secrets: string[], body: string, id = 'msg_task_1') {
  const timestampSeconds = Math.floor(Date.now() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secrets, { id, timestampSeconds, body }),
  };
}

describe('signWebhook', () => {
  it('signs what the standardwebhooks package verifies', () => {
    const secret = newSecret();
    const body = JSON.stringify({ type: 'task.completed', timestamp: new Date().toISOString(), data: { attempt: 1, é: 'ü' } });
    expect(new Webhook(secret).verify(body, headersOf([secret], body))).toEqual(JSON.parse(body));
  });

  it('signs with both secrets during a rotation, so a receiver holding either verifies', () => {
    const [oldSecret, newer] = [newSecret(), newSecret()];
    const body = '{"type":"task.restarted"}';
    const headers = headersOf([newer, oldSecret], body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newer).verify(body, headers)).not.toThrow();
  });

  it('fails verification for another secret or a changed body', () => {
    const secret = newSecret();
    const headers = headersOf([secret], '{"a":1}');
    expect(() => new Webhook(newSecret()).verify('{"a":1}', headers)).toThrow();
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow();
  });

  it('refuses a secret that is not whsec_ and base64 of at least 24 bytes', () => {
    expect(webhookKeyOf(`whsec_${randomBytes(16).toString('base64')}`)).toBeUndefined();
    expect(webhookKeyOf(randomBytes(32).toString('base64'))).toBeUndefined();
    expect(webhookKeyOf('whsec_not base64!')).toBeUndefined();
    expect(webhookKeyOf(newSecret())).toHaveLength(32);
  });
});

describe('the partner endpoint outcome', () => {
  const row: OutboxUpdate = {
    id: 1,
    taskId: 'task',
    assignedTaskUuid: '22222222-2222-4222-8222-222222222222',
    companyUuid: '44444444-4444-4444-8444-444444444444',
    lane: 'partner',
    payload: { taskStatus: 'inProgress', sentAt: '2026-03-01T09:00:00.000Z' },
    sentAt: 0,
    state: 'pending',
    attempts: 0,
    refusals: 0,
    nextAttemptAt: 0,
    lockedUntil: null,
    lockedBy: null,
    lastError: null,
    deadReason: null,
    createdAt: 0,
    deliveredAt: null,
    deadAt: null,
  };

  it('retries every failure, 4xx included, and keeps no refusal evidence (unknown_task and forbidden stay the platform lane’s)', async () => {
    const answers: [number, Record<string, string>?][] = [
      [204],
      [503, { 'retry-after': '2' }],
      [429, { 'retry-after': '1' }],
      [400],
      [401],
      [403],
      [404],
      [410],
    ];
    const receiver = await startWebhookReceiver({
      answer: (_request, response) => {
        const [status, headers] = answers[receiver.received.length - 1]!;
        response.writeHead(status, headers).end(status >= 400 && status < 500 ? 'no' : '');
      },
    });
    const transport = createHttpTransport();
    try {
      const sender = partnerWebhookSender(
        { url: receiver.url, secrets: () => [newSecret()] },
        { clock: new ManualClock(0), timeoutMs: 5_000, send: transport.send },
      );
      const outcomes = [];
      for (let i = 0; i < answers.length; i += 1) outcomes.push(await sender.updatePartnerTask(row.assignedTaskUuid, row.payload, row));
      expect(outcomes[0]).toEqual({ kind: 'delivered', status: 204 });
      expect(outcomes[1]).toMatchObject({ kind: 'retryable', reason: 'server_error', retryAfterMs: 2000 });
      expect(outcomes[2]).toMatchObject({ kind: 'retryable', reason: 'rate_limited', retryAfterMs: 1000 });
      for (const [index, status] of [400, 401, 403, 404, 410].entries()) {
        expect(outcomes[index + 3]).toMatchObject({ kind: 'retryable', status, detail: `HTTP ${status}: no` });
      }
    } finally {
      transport.close();
      await receiver.close();
    }
  });
});

describe('PARTNER_WEBHOOK_* configuration', () => {
  const platform = {
    WX_API_KEY: 'k',
    WX_API_SECRET: 's',
    WX_AUTH_URL: 'https://auth.example.com',
    WX_BASE_URL: 'https://api.example.com',
    WX_TASK_BASE_URL: 'https://api.example.com',
    PORTAL_ORIGINS: 'https://portal.example.com',
    SESSION_SECRET: 'x'.repeat(40),
    SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    WX_COMPANY_UUIDS: '8c5e5e4b-3b1c-4a8e-9f58-0c2f2a3c1d11',
    METRICS_TOKEN: 'm'.repeat(40),
  };

  it('takes an https endpoint with a whsec_ secret', () => {
    const secret = newSecret();
    const result = parseConfig({ ...platform, PARTNER_WEBHOOK_URL: 'https://partner.example.com/hooks', PARTNER_WEBHOOK_SECRET: secret });
    expect(result.ok && result.config.partnerWebhook).toEqual({ kind: 'endpoint', url: 'https://partner.example.com/hooks', secret });
  });

  it('refuses a URL without its secret, a bad secret (without echoing it), and plain http beyond loopback', () => {
    const problems = (env: Record<string, string>) => {
      const result = parseConfig({ ...platform, ...env });
      return result.ok ? [] : result.problems;
    };
    expect(problems({ PARTNER_WEBHOOK_URL: 'https://p.example.com' }).join()).toMatch(/^PARTNER_WEBHOOK_SECRET: expected whsec_/);
    const bad = problems({ PARTNER_WEBHOOK_URL: 'https://p.example.com', PARTNER_WEBHOOK_SECRET: 'whsec_c2hvcnQ=' }).join();
    expect(bad).toMatch(/PARTNER_WEBHOOK_SECRET: .*a value of 14 characters \(not shown\)/);
    expect(bad).not.toContain('c2hvcnQ');
    expect(problems({ PARTNER_WEBHOOK_SECRET: newSecret() }).join()).toMatch(/^PARTNER_WEBHOOK_URL: expected the endpoint/);
    expect(problems({ PARTNER_WEBHOOK_URL: 'http://p.example.com', PARTNER_WEBHOOK_SECRET: newSecret() }).join()).toMatch(
      /PARTNER_WEBHOOK_URL: expected an https URL/,
    );
    expect(problems({ PARTNER_WEBHOOK_URL: 'http://127.0.0.1:9000/hooks', PARTNER_WEBHOOK_SECRET: newSecret() })).toEqual([]);
  });

  it('sends nothing when unset, outside emulator mode', () => {
    const result = parseConfig(platform);
    expect(result.ok && result.config.partnerWebhook).toEqual({ kind: 'none' });
  });
});
