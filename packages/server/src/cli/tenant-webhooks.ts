import { systemClock } from '../clock.ts';
import { isPlainHttpBeyondLoopback } from '../config-checks.ts';
import { newWebhookSecret } from '../delivery/webhook-signature.ts';
import {
  listPartnerWebhooks,
  removePartnerWebhook,
  rotatePartnerWebhookSecret,
  setPartnerWebhook,
} from '../store/partner-webhooks.repository.ts';
import type { Store } from '../store/store.ts';
import { sealSecret } from '../tenants/secret-sealing.ts';

/** The lines of `npm run tenants`'s usage about webhooks. */
export const webhookUsage = `  webhook --company <uuid> --url <url>             the company's endpoint for task events; prints its new secret once
                                                   (run again with another --url: the URL changes, the secret stays)
  webhook --company <uuid> --rotate-secret         a new secret, printed once; the old one also signs for 24 h
  webhook --company <uuid> --remove                no more events for the company
  webhooks                                         one line per webhook: company, url, created, rotated (never a secret)`;

/** docs/connecting-your-backend.md#events-to-your-backend: during a rotation both secrets sign, so the receiver can switch without a gap. */
const OLD_SECRET_SIGNS_MS = 24 * 60 * 60_000;

export type WebhookAction = { kind: 'set'; url: string } | { kind: 'rotate' } | { kind: 'remove' };

/**
 * What `webhook` is asked to do, or the one-line reason it cannot be (exit 2). The URL follows PARTNER_WEBHOOK_URL's
 * rule (packages/server/src/config-partner-webhook.ts): https beyond loopback, unless ALLOW_INSECURE_PLATFORM_URL.
 */
export function webhookActionOf(
  values: { url?: string | undefined; 'rotate-secret'?: boolean | undefined; remove?: boolean | undefined },
  allowInsecureUrl: boolean,
): { action: WebhookAction; warning?: string } | { problem: string } {
  const url = values.url?.trim();
  const chosen = [url !== undefined, values['rotate-secret'] === true, values.remove === true].filter(Boolean).length;
  if (chosen !== 1) return { problem: 'webhook: expected exactly one of --url <url>, --rotate-secret, --remove' };
  if (values['rotate-secret']) return { action: { kind: 'rotate' } };
  if (values.remove) return { action: { kind: 'remove' } };
  let parsed: URL;
  try {
    parsed = new URL(url!);
  } catch {
    return { problem: `webhook: expected --url with an https URL, got ${JSON.stringify(url)}` };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return { problem: `webhook: expected --url with an https URL, got ${JSON.stringify(url)}` };
  // `webhooks` lists the URL: a password in it would be shown there, and the events are signed anyway.
  if (parsed.username !== '' || parsed.password !== '')
    return { problem: 'webhook: expected a URL without a user name or password (the events are signed with the webhook secret)' };
  if (!isPlainHttpBeyondLoopback(url!)) return { action: { kind: 'set', url: url! } };
  // docs/platform.md#addresses: the same rule as the platform's addresses, since events carry workers' answers.
  if (!allowInsecureUrl) {
    return {
      problem: `webhook: expected an https URL (plain http would send workers' answers in clear text), got ${JSON.stringify(url)}; set ALLOW_INSECURE_PLATFORM_URL=true if the endpoint offers nothing else`,
    };
  }
  return {
    action: { kind: 'set', url: url! },
    warning: `warning: ${parsed.host} is plain HTTP: task events and their signatures cross the network unencrypted`,
  };
}

/** Carries out `webhook` for one company (lower case); the secret is written to standard output once, alone on its line. */
export async function changeWebhook(store: Store, company: string, action: WebhookAction, credentialsKey: Buffer): Promise<number> {
  const now = systemClock.now();
  const owner = { companyUuid: company, partnerWebhook: true as const };
  switch (action.kind) {
    case 'set': {
      const secret = newWebhookSecret();
      const sealedSecret = sealSecret(secret, credentialsKey, owner);
      const result = await setPartnerWebhook(store.db, { companyUuid: company, url: action.url, sealedSecret, now });
      if (result.kind === 'not_a_tenant') {
        return fail(
          `webhook: company ${company} is not a tenant; add it first: npm run -s tenants -- add --company ${company} --key <key>`,
        );
      }
      if (result.kind === 'unchanged')
        return say(`the webhook of company ${company} already posts to ${action.url}; its secret is unchanged`);
      if (result.kind === 'url_changed') {
        return say(`the webhook of company ${company} now posts to ${action.url} (was ${result.previousUrl}); its secret is unchanged`);
      }
      process.stdout.write(`${secret}\n`);
      note(
        `The webhook of company ${company} posts to ${action.url}, signed with the secret above, shown this once. The endpoint verifies each event with it, e.g. new Webhook(secret).verify(body, headers) of the standardwebhooks package (docs/api.md, "Events to your backend"). A running server sends events within 10 s.`,
      );
      return 0;
    }
    case 'rotate': {
      const secret = newWebhookSecret();
      const sealedSecret = sealSecret(secret, credentialsKey, owner);
      const until = now + OLD_SECRET_SIGNS_MS;
      if (!(await rotatePartnerWebhookSecret(store.db, { companyUuid: company, sealedSecret, now, previousUntil: until }))) {
        return fail(`webhook: company ${company} has no webhook to rotate; set one with --url <url>`);
      }
      process.stdout.write(`${secret}\n`);
      note(
        `The new secret of company ${company}'s webhook is above, shown this once. Until ${iso(until)} every event carries two signatures, by the old secret and the new: give the endpoint the new one before then.`,
      );
      return 0;
    }
    case 'remove':
      if (!(await removePartnerWebhook(store.db, company))) return fail(`webhook: company ${company} has no webhook`);
      return say(
        `removed the webhook of company ${company}: no more events are written for it; those not delivered yet are held until it has one again`,
      );
  }
}

export async function listWebhooks(store: Store): Promise<number> {
  const webhooks = await listPartnerWebhooks(store.db);
  if (webhooks.length === 0) note('No webhooks yet: npm run -s tenants -- webhook --company <uuid> --url <url>');
  const now = systemClock.now();
  for (const webhook of webhooks) {
    const overlap =
      webhook.previousUntil !== null && webhook.previousUntil > now ? `  old secret signs until ${iso(webhook.previousUntil)}` : '';
    const rotated = webhook.rotatedAt === null ? '-' : iso(webhook.rotatedAt);
    say(`${webhook.companyUuid}  ${webhook.url}  created ${iso(webhook.createdAt)}  rotated ${rotated}${overlap}`);
  }
  return 0;
}

const iso = (at: number) => new Date(at).toISOString();

function say(line: string): number {
  process.stdout.write(`${line}\n`);
  return 0;
}

function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 1;
}
