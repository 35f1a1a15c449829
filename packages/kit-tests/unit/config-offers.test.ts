import { describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';

const platform = {
  WX_API_KEY: 'key-123',
  WX_API_SECRET: 'secret-456',
  WX_AUTH_URL: 'https://auth.example.com',
  WX_BASE_URL: 'https://api.example.com/',
  WX_TASK_BASE_URL: 'https://tasks.example.com',
  PORTAL_ORIGINS: 'https://portal.example.com',
  SESSION_SECRET: 'x'.repeat(40),
  SENSITIVE_DATA_KEYS: 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
};
const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

describe('the configuration of offers (docs/configuration.md#offers)', () => {
  it('asks the stand-in in emulator mode, nothing outside it, with a 5 s budget by default', () => {
    expect(parseConfig({})).toMatchObject({ ok: true, config: { partnerBackend: { kind: 'emulator-stand-in' }, offerTimeoutMs: 5000 } });
    expect(parseConfig(platform)).toMatchObject({ ok: true, config: { partnerBackend: { kind: 'none' } } });
  });

  it('signs for PARTNER_BACKEND_URL with PARTNER_WEBHOOK_SECRET, which needs no PARTNER_WEBHOOK_URL then', () => {
    const result = parseConfig({
      ...platform,
      PARTNER_BACKEND_URL: 'https://backend.example.com/partner/',
      PARTNER_WEBHOOK_SECRET: secret,
      OFFER_TIMEOUT_MS: '2500',
    });
    expect(result).toMatchObject({
      ok: true,
      config: {
        partnerBackend: { kind: 'endpoint', url: 'https://backend.example.com/partner', secret },
        partnerWebhook: { kind: 'none' },
        offerTimeoutMs: 2500,
      },
    });
  });

  it('refuses PARTNER_BACKEND_URL without a secret, with a bad one (never echoed), or over plain http beyond loopback', () => {
    const url = { PARTNER_BACKEND_URL: 'https://backend.example.com' };
    expect(parseConfig({ ...platform, ...url })).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^PARTNER_WEBHOOK_SECRET: .*when PARTNER_BACKEND_URL is set/)],
    });
    const bad = parseConfig({ ...platform, ...url, PARTNER_WEBHOOK_SECRET: 'whsec_short-and-secret' });
    expect(bad).toMatchObject({ ok: false, problems: [expect.stringMatching(/^PARTNER_WEBHOOK_SECRET: /)] });
    expect(JSON.stringify(bad)).not.toContain('short-and-secret');
    expect(parseConfig({ ...platform, PARTNER_BACKEND_URL: 'http://backend.example.com', PARTNER_WEBHOOK_SECRET: secret })).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^PARTNER_BACKEND_URL: expected an https URL/)],
    });
    expect(parseConfig({ ...platform, PARTNER_BACKEND_URL: 'http://127.0.0.1:9000', PARTNER_WEBHOOK_SECRET: secret })).toMatchObject({
      ok: true,
    });
  });

  it('refuses an OFFER_TIMEOUT_MS out of its range', () => {
    for (const value of ['10', '8000']) {
      expect(parseConfig({ OFFER_TIMEOUT_MS: value })).toMatchObject({
        ok: false,
        problems: [expect.stringMatching(/^OFFER_TIMEOUT_MS: /)],
      });
    }
  });
});
