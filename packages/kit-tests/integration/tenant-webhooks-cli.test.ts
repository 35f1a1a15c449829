import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';
import { openStore } from '@partner-task-kit/server/store/store';
import { openCompanyCredentials } from '@partner-task-kit/server/tenants/company-credentials';
import { runKitCommand } from '../helpers/run-command';
import { tenantModeEnv } from '../helpers/server-process';

const company = '7e1d2c3b-4a59-4f60-8172-93a4b5c6d7e8';
const stranger = '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
const secretPattern = /^whsec_[A-Za-z0-9+/]{43}=$/;
let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-webhooks-cli-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const cliEnvironment = (extra: Record<string, string> = {}) =>
  tenantModeEnv(undefined, { DATABASE_URL: join(directory, 'store.db'), ...extra });
const tenantsCli = (args: string[], extra: Record<string, string> = {}, input?: string) =>
  runKitCommand('tenants', cliEnvironment(extra), 30_000, args, input);

/** The secrets as a running server would open them from the database. */
async function storedSecretsOf(companyUuid: string) {
  const parsed = parseConfig(cliEnvironment());
  if (!parsed.ok || parsed.config.tenancy.mode !== 'tenants') throw new Error('not tenant mode');
  const store = await openStore(parsed.config.database);
  try {
    return (await openCompanyCredentials(parsed.config.tenancy, store)).partnerWebhookFor(companyUuid);
  } finally {
    await store.close();
  }
}

describe('npm run tenants -- webhook', () => {
  it('prints each secret once, lists webhooks without one, and keeps none in clear in the database files', async () => {
    expect(await tenantsCli(['add', '--company', company, '--key', 'key-w', '--no-check'], {}, 'api-secret-w\n')).toMatchObject({
      code: 0,
    });

    const refused = await tenantsCli(['webhook', '--company', stranger, '--url', 'https://partner.example.com/hooks']);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toMatch(new RegExp(`^webhook: company ${stranger} is not a tenant; add it first`));

    const created = await tenantsCli(['webhook', '--company', company.toUpperCase(), '--url', 'https://partner.example.com/hooks']);
    expect(created.code).toBe(0);
    const first = created.stdout.trim();
    expect(created.stdout).toBe(`${first}\n`);
    expect(first).toMatch(secretPattern);
    expect(created.stderr).toMatch(/shown this once.*new Webhook\(secret\)\.verify\(body, headers\)/);

    const moved = await tenantsCli(['webhook', '--company', company, '--url', 'https://partner.example.com/v2/hooks']);
    expect(moved).toMatchObject({ code: 0, stderr: '' });
    expect(moved.stdout).toBe(
      `the webhook of company ${company} now posts to https://partner.example.com/v2/hooks (was https://partner.example.com/hooks); its secret is unchanged\n`,
    );
    expect(await storedSecretsOf(company)).toEqual({ url: 'https://partner.example.com/v2/hooks', secret: first });

    const rotated = await tenantsCli(['webhook', '--company', company, '--rotate-secret']);
    expect(rotated.code).toBe(0);
    const second = rotated.stdout.trim();
    expect(rotated.stdout).toBe(`${second}\n`);
    expect(second).toMatch(secretPattern);
    expect(second).not.toBe(first);
    expect(rotated.stderr).toMatch(/Until \d{4}-\d\d-\d\dT\S+Z every event carries two signatures/);
    const stored = await storedSecretsOf(company);
    expect(stored).toMatchObject({ secret: second, previous: { secret: first } });
    expect(stored!.previous!.until - Date.now()).toBeGreaterThan(24 * 60 * 60_000 - 60_000);

    const listed = await tenantsCli(['webhooks']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`^${company}  https://partner\\.example\\.com/v2/hooks  created \\S+Z  rotated \\S+Z  old secret signs until \\S+Z\\n$`),
    );
    const outputs = [refused, moved, listed].map((result) => result.stdout + result.stderr).join('');
    const files = ['store.db', 'store.db-wal'].map((name) => join(directory, name)).filter((file) => existsSync(file));
    expect(files.length).toBeGreaterThan(0);
    for (const secret of [first, second]) {
      expect(outputs).not.toContain(secret);
      expect(created.stderr + rotated.stderr).not.toContain(secret);
      for (const file of files) {
        const bytes = readFileSync(file);
        expect(bytes.includes(Buffer.from(secret.slice('whsec_'.length))), file).toBe(false);
        expect(bytes.includes(Buffer.from(secret.slice('whsec_'.length), 'base64')), file).toBe(false);
      }
    }

    expect(await tenantsCli(['webhook', '--company', company, '--remove'])).toMatchObject({ code: 0 });
    expect(await tenantsCli(['webhooks'])).toMatchObject({ code: 0, stdout: '', stderr: expect.stringMatching(/^No webhooks yet/) });
    expect(await tenantsCli(['webhook', '--company', company, '--rotate-secret'])).toMatchObject({ code: 1, stdout: '' });
  }, 60_000);

  it('refuses plain http beyond loopback and bad arguments with one line and exit 2, changing nothing', async () => {
    expect(await tenantsCli(['add', '--company', company, '--key', 'key-w', '--no-check'], {}, 'api-secret-w\n')).toMatchObject({
      code: 0,
    });
    const refusals = [
      ['webhook', '--company', company, '--url', 'http://partner.example.com/hooks'],
      ['webhook', '--company', company, '--url', 'ftp://partner.example.com/hooks'],
      ['webhook', '--company', company, '--url', 'not a url'],
      ['webhook', '--company', company, '--url', 'https://user:pass@partner.example.com/hooks'],
      ['webhook', '--company', company],
      ['webhook', '--company', company, '--url', 'https://partner.example.com/hooks', '--remove'],
      ['webhook', '--company', 'not-a-uuid', '--url', 'https://partner.example.com/hooks'],
    ];
    for (const args of refusals) {
      const result = await tenantsCli(args);
      expect([result.code, result.stdout], args.join(' ')).toEqual([2, '']);
      expect(result.stderr, args.join(' ')).toMatch(/^webhook: expected [^\n]+\n$/);
    }
    expect((await tenantsCli(['webhook', '--company', company, '--url', 'http://partner.example.com/hooks'])).stderr).toMatch(
      /expected an https URL .*ALLOW_INSECURE_PLATFORM_URL=true/,
    );
    expect(await tenantsCli(['webhooks'])).toMatchObject({ stdout: '' });

    // Loopback needs no https; beyond it, the escape of PARTNER_WEBHOOK_URL applies, with a warning.
    expect(await tenantsCli(['webhook', '--company', company, '--url', 'http://127.0.0.1:4000/hooks'])).toMatchObject({ code: 0 });
    const insecure = await tenantsCli(['webhook', '--company', company, '--url', 'http://partner.example.com/hooks'], {
      ALLOW_INSECURE_PLATFORM_URL: 'true',
    });
    expect(insecure).toMatchObject({ code: 0, stderr: expect.stringMatching(/^warning: partner\.example\.com is plain HTTP/) });
    expect((await tenantsCli(['webhooks'])).stdout).toContain('  http://partner.example.com/hooks  ');
  }, 60_000);
});
