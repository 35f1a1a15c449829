import { parseArgs } from 'node:util';
import { z } from 'zod';
import { systemClock } from '../clock.ts';
import { loadConfigOrExit } from '../config.ts';
import { newPartnerKey } from '../partner-api/partner-key-secret.ts';
import { insertPartnerKey, listPartnerKeys, revokePartnerKey } from '../store/partner-keys.repository.ts';
import { listReveals } from '../store/sensitive-reveals.repository.ts';
import { openStore } from '../store/store.ts';
import { canonicalUuid } from '@partner-task-kit/workflow/contract';

const usage = `Usage: npm run -s partner-keys -- <command>
  create --name <label> [--company <uuid>] [--reveal-sensitive]
                                             prints a new key of the partner API once (in tenant mode --company is required);
                                             --reveal-sensitive: it may ask for sensitive values in clear (?reveal=sensitive)
  list                                       one line per key: name, prefix, company, reveal right, created, last used, revoked
  revoke --name <label>                      the key answers 401 from its next request
  reveals [--since <ISO date>]               one line per sensitive value shown in clear: time, key, task, field
Runs with the server's environment (DATABASE_URL); only a hash of each key is stored.`;

const commands = ['create', 'list', 'revoke', 'reveals'];
const nameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);

/** `npm run partner-keys`: the keys of the partner API (`/api/partner/v1/`), against the database of DATABASE_URL. */
export async function partnerKeysCommand(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      company: { type: 'string' },
      'reveal-sensitive': { type: 'boolean' },
      since: { type: 'string' },
    },
  });
  const [command] = positionals;
  if (command === undefined || !commands.includes(command)) return fail(usage, 2);
  const config = loadConfigOrExit();
  const name = values.name?.trim();
  const since = values.since === undefined ? 0 : Date.parse(values.since);
  if (Number.isNaN(since)) return fail(`reveals: expected --since <ISO date>, got ${JSON.stringify(values.since)}`, 2);
  if (command !== 'list' && command !== 'reveals' && !nameSchema.safeParse(name).success) {
    return fail(`${command}: expected --name <label> (letters, digits, . _ -), got ${JSON.stringify(name ?? '')}`, 2);
  }
  let company: string | null = null;
  if (command === 'create') {
    if (values.company !== undefined) {
      const parsed = z.uuid().safeParse(values.company.trim());
      if (!parsed.success) return fail(`create: expected --company <uuid>, got ${JSON.stringify(values.company)}`, 2);
      company = canonicalUuid(parsed.data);
    } else if (config.tenancy.mode === 'tenants') {
      // docs/decisions/008-a-deputy-for-many-companies.md: in tenant mode each company is its own client, and a key sees one company's tasks.
      return fail('create: tenant mode is on, so a key belongs to one company: add --company <uuid>', 2);
    }
  }

  const store = await openStore(config.database);
  try {
    const now = systemClock.now();
    if (command === 'create') {
      const { key, prefix, keyHash } = newPartnerKey();
      const revealSensitive = values['reveal-sensitive'] === true;
      const created = await insertPartnerKey(store.db, { name: name!, prefix, keyHash, companyUuid: company, revealSensitive, now });
      if (!created.ok) return fail(`create: a key named ${name} exists; revoke it first or choose another name`, 1);
      print(key);
      const right = revealSensitive ? ', may reveal sensitive values' : '';
      process.stderr.write(`created key ${name} (${prefix}…) for ${company ?? 'every company'}${right}; it is shown once: store it now\n`);
      return 0;
    }
    if (command === 'revoke') {
      if (!(await revokePartnerKey(store.db, name!, now))) return fail(`revoke: no active key named ${name}`, 1);
      print(`revoked key ${name}; it answers 401 from its next request`);
      return 0;
    }
    if (command === 'reveals') {
      // docs/operations.md#sensitive-values: who saw which sensitive value in clear, and when; never the value.
      for (const reveal of await listReveals(store.db, since)) {
        print(`${iso(reveal.revealedAt)}  key ${reveal.keyName}  task ${reveal.assignedTaskUuid}  field ${reveal.field}`);
      }
      return 0;
    }
    const keys = await listPartnerKeys(store.db);
    if (keys.length === 0) process.stderr.write('No keys yet: npm run -s partner-keys -- create --name <label>\n');
    for (const key of keys) {
      const state = key.revokedAt === null ? '' : `  revoked ${iso(key.revokedAt)}`;
      print(
        `${key.name}  ${key.prefix}…  company ${key.companyUuid ?? 'any'}  ${key.revealSensitive ? 'reveals sensitive  ' : ''}created ${iso(key.createdAt)}  last used ${key.lastUsedAt === null ? 'never' : iso(key.lastUsedAt)}${state}`,
      );
    }
    return 0;
  } finally {
    await store.close();
  }
}

const iso = (at: number) => new Date(at).toISOString();

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function fail(message: string, code: number): number {
  process.stderr.write(`${message}\n`);
  return code;
}
