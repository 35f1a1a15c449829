import { describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';
import { singleEndpoint, tenantEndpoints } from '@partner-task-kit/server/delivery/partner-endpoints';
import type { CompanyWebhook, CompanyWebhooks } from '@partner-task-kit/server/tenants/company-webhooks';
import { ManualClock } from '../helpers/manual-clock';

const companyA = '5b7c0d2e-1f3a-4b5c-8d6e-7f8091a2b3c4';
const companyB = 'c4d5e6f7-0a1b-4c2d-9e3f-405162738495';

/** The tenants' directory as the partner lane reads it: what its last refresh found. */
function directory(initial: Record<string, CompanyWebhook>) {
  const webhooks = new Map(Object.entries(initial));
  const read: CompanyWebhooks = {
    partnerWebhookFor: (companyUuid) => webhooks.get(companyUuid.toLowerCase()),
    partnerWebhookCompanies: () => new Set(webhooks.keys()),
  };
  return { read, webhooks };
}

describe('partner endpoints', () => {
  it('sends every company to one endpoint under one circuit with a single endpoint', () => {
    const endpoints = singleEndpoint('https://partner.example.com/hooks', 'whsec_one');
    expect([endpoints.tells(companyA), endpoints.deliverableCompanies(), endpoints.companiesOf('default')]).toEqual([
      true,
      undefined,
      undefined,
    ]);
    const route = endpoints.endpointFor(companyB)!;
    expect([route.key, route.url, route.secrets()]).toEqual(['default', 'https://partner.example.com/hooks', ['whsec_one']]);
  });

  it('in tenant mode, tells and routes only the companies with a webhook, each under its own circuit', () => {
    const { read } = directory({ [companyA]: { url: 'https://a.example.com/hooks', secret: 'whsec_a' } });
    const endpoints = tenantEndpoints(read, new ManualClock());
    expect([endpoints.tells(companyA.toUpperCase()), endpoints.tells(companyB)]).toEqual([true, false]);
    expect(endpoints.endpointFor(companyB)).toBeUndefined();
    expect(endpoints.endpointFor(companyA.toUpperCase())).toMatchObject({ key: companyA, url: 'https://a.example.com/hooks' });
    expect([...endpoints.deliverableCompanies()!]).toEqual([companyA]);
    expect([...endpoints.companiesOf(companyA)!]).toEqual([companyA]);
  });

  it('reads the secrets at each signature: a rotation applies to a route already handed out, and the old one ends on time', () => {
    const clock = new ManualClock(Date.parse('2026-03-01T09:00:00Z'));
    const { read, webhooks } = directory({ [companyA]: { url: 'https://a.example.com/hooks', secret: 'whsec_old' } });
    const route = tenantEndpoints(read, clock).endpointFor(companyA)!;
    expect(route.secrets()).toEqual(['whsec_old']);
    const until = clock.now() + 24 * 60 * 60_000;
    webhooks.set(companyA, { url: 'https://a.example.com/hooks', secret: 'whsec_new', previous: { secret: 'whsec_old', until } });
    expect(route.secrets()).toEqual(['whsec_new', 'whsec_old']);
    clock.set(until - 1);
    expect(route.secrets()).toEqual(['whsec_new', 'whsec_old']);
    clock.set(until);
    expect(route.secrets()).toEqual(['whsec_new']);
  });

  it("takes each company's endpoint from the tenants in tenant mode, with ALLOW_INSECURE_PLATFORM_URL's escape", () => {
    const tenantMode = {
      CREDENTIALS_KEY: Buffer.alloc(32, 3).toString('base64'),
      WX_AUTH_URL: 'https://auth.example.com',
      WX_BASE_URL: 'https://api.example.com',
      WX_TASK_BASE_URL: 'https://api.example.com',
      PORTAL_ORIGINS: 'https://portal.example.com',
      SESSION_SECRET: 'x'.repeat(40),
      SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      METRICS_TOKEN: 'm'.repeat(40),
    };
    const of = (env: Record<string, string>) => {
      const result = parseConfig({ ...tenantMode, ...env });
      return result.ok ? result.config.partnerWebhook : result.problems;
    };
    expect(of({})).toEqual({ kind: 'per-company', allowInsecureUrl: false });
    expect(of({ ALLOW_INSECURE_PLATFORM_URL: 'true' })).toEqual({ kind: 'per-company', allowInsecureUrl: true });
    expect(String(of({ PARTNER_WEBHOOK_URL: 'https://partner.example.com/hooks' }))).toMatch(
      /^PARTNER_WEBHOOK_URL: expected nothing in tenant mode .*npm run -s tenants -- webhook/,
    );
  });
});
