import { type ConfigFindings, type ConfigMode, describeValue, isPlainHttpBeyondLoopback } from './config-checks.ts';
import type { Environment } from './config-environment.ts';
import { MIN_SECRET_BYTES, webhookKeyOf } from './delivery/webhook-signature.ts';

/**
 * Where the events to the partner's backend go: an endpoint with its secret, the emulator's own receiver (emulator mode
 * without PARTNER_WEBHOOK_URL: a secret is made per start), each company's own endpoint (tenant mode, set with
 * `npm run tenants -- webhook`, held to https beyond loopback unless `allowInsecureUrl`), or nowhere (no event is
 * written).
 */
export type PartnerWebhookConfig =
  | { kind: 'endpoint'; url: string; secret: string }
  | { kind: 'emulator-receiver' }
  | { kind: 'per-company'; allowInsecureUrl: boolean }
  | { kind: 'none' };

/** PARTNER_WEBHOOK_URL and PARTNER_WEBHOOK_SECRET go together, the secret is a `whsec_` one, the URL https beyond loopback. */
export function partnerWebhookOf(e: Environment, mode: ConfigMode, { problems, warnings }: ConfigFindings): PartnerWebhookConfig {
  const url = e.PARTNER_WEBHOOK_URL;
  const secret = e.PARTNER_WEBHOOK_SECRET;
  if (mode.tenantMode && (url !== undefined || secret !== undefined)) {
    problems.push(
      "PARTNER_WEBHOOK_URL: expected nothing in tenant mode (each company's endpoint belongs to its tenant: npm run -s tenants -- webhook --company <uuid> --url <url>), got a value; unset PARTNER_WEBHOOK_URL and PARTNER_WEBHOOK_SECRET",
    );
  }
  if (mode.tenantMode) return { kind: 'per-company', allowInsecureUrl: e.ALLOW_INSECURE_PLATFORM_URL };
  if (url === undefined) {
    if (secret !== undefined && e.PARTNER_BACKEND_URL === undefined)
      problems.push('PARTNER_WEBHOOK_URL: expected the endpoint that PARTNER_WEBHOOK_SECRET signs for, got nothing');
    return mode.emulatorMode ? { kind: 'emulator-receiver' } : { kind: 'none' };
  }
  if (secret === undefined) {
    problems.push(
      `PARTNER_WEBHOOK_SECRET: expected whsec_ followed by the base64 of at least ${MIN_SECRET_BYTES} random bytes when PARTNER_WEBHOOK_URL is set (e.g. \`echo whsec_$(openssl rand -base64 32)\`), got nothing`,
    );
  } else if (webhookKeyOf(secret.trim()) === undefined) {
    problems.push(
      `PARTNER_WEBHOOK_SECRET: expected whsec_ followed by the base64 of at least ${MIN_SECRET_BYTES} random bytes (e.g. \`echo whsec_$(openssl rand -base64 32)\`), got ${describeValue('PARTNER_WEBHOOK_SECRET', secret)}`,
    );
  }
  // The same rule as the platform's addresses (docs/platform.md#addresses): events carry workers' answers.
  if (isPlainHttpBeyondLoopback(url)) {
    if (e.ALLOW_INSECURE_PLATFORM_URL) {
      warnings.push(
        `PARTNER_WEBHOOK_URL is plain HTTP to ${new URL(url).host}: task events and their signatures cross the network unencrypted`,
      );
    } else {
      problems.push(
        `PARTNER_WEBHOOK_URL: expected an https URL (plain http would send workers' answers in clear text), got ${JSON.stringify(url)}; set ALLOW_INSECURE_PLATFORM_URL=true if the endpoint offers nothing else`,
      );
    }
  }
  return { kind: 'endpoint', url, secret: (secret ?? '').trim() };
}

/**
 * Where offers are asked for (docs/connecting-your-backend.md#offers): PARTNER_BACKEND_URL, signed with
 * PARTNER_WEBHOOK_SECRET as the events are; emulator mode without it answers with a stand-in in the same process; else
 * none (a step with an offer then answers 424 offer_unavailable). Not in tenant mode yet: each company would need a
 * backend of its own, as it has a webhook of its own.
 */
export type PartnerBackendConfig = { kind: 'endpoint'; url: string; secret: string } | { kind: 'emulator-stand-in' } | { kind: 'none' };

export function partnerBackendOf(e: Environment, mode: ConfigMode, { problems, warnings }: ConfigFindings): PartnerBackendConfig {
  const url = e.PARTNER_BACKEND_URL;
  if (url === undefined) return mode.emulatorMode && !mode.tenantMode ? { kind: 'emulator-stand-in' } : { kind: 'none' };
  if (mode.tenantMode) {
    problems.push('PARTNER_BACKEND_URL: expected nothing in tenant mode (offers are not asked per company yet), got a value; unset it');
    return { kind: 'none' };
  }
  const secret = e.PARTNER_WEBHOOK_SECRET?.trim();
  if (secret === undefined) {
    problems.push(
      `PARTNER_WEBHOOK_SECRET: expected whsec_ followed by the base64 of at least ${MIN_SECRET_BYTES} random bytes when PARTNER_BACKEND_URL is set (offer requests are signed with it), got nothing`,
    );
  } else if (e.PARTNER_WEBHOOK_URL === undefined && webhookKeyOf(secret) === undefined) {
    // With PARTNER_WEBHOOK_URL set, partnerWebhookOf has described a bad secret already.
    problems.push(
      `PARTNER_WEBHOOK_SECRET: expected whsec_ followed by the base64 of at least ${MIN_SECRET_BYTES} random bytes (e.g. \`echo whsec_$(openssl rand -base64 32)\`), got ${describeValue('PARTNER_WEBHOOK_SECRET', secret)}`,
    );
  }
  // Offer requests carry workers' answers, as events do (docs/platform.md#addresses).
  if (isPlainHttpBeyondLoopback(url)) {
    if (e.ALLOW_INSECURE_PLATFORM_URL) {
      warnings.push(`PARTNER_BACKEND_URL is plain HTTP to ${new URL(url).host}: offer requests cross the network unencrypted`);
    } else {
      problems.push(
        `PARTNER_BACKEND_URL: expected an https URL (plain http would send workers' answers in clear text), got ${JSON.stringify(url)}; set ALLOW_INSECURE_PLATFORM_URL=true if the backend offers nothing else`,
      );
    }
  }
  return { kind: 'endpoint', url: url.replace(/\/+$/, ''), secret: secret ?? '' };
}
