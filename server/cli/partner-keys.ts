import { parseArgs } from 'node:util';
import { z } from 'zod';
import { systemClock } from '../clock';
import { loadConfigOrExit } from '../config';
import { newPartnerKey } from '../partner-api/partner-key-secret';
import { insertPartnerKey, listPartnerKeys, revokePartnerKey } from '../store/partner-keys.repository';
import { openStore } from '../store/store';
import { canonicalUuid } from '../../src/contract/task-context';

const usage = `Usage: npm run -s partner-keys -- <command>
  create --name <label> [--company <uuid>]   prints a new key of the partner API once (in tenant mode --company is required)
  list                                       one line per key: name, prefix, company, created, last used, revoked
  revoke --name <label>                      the key answers 401 from its next request
Runs with the server's environment (DATABASE_URL); only a hash of each key is stored.`;

const commands = ['create', 'list', 'revoke'];
const nameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);

/** `npm run partner-keys`: the keys of the partner API (`/api/partner/v1/`), against the database of DATABASE_URL. */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: { name: { type: 'string' }, company: { type: 'string' } },
  });
  const [command] = positionals;
  if (command === undefined || !commands.includes(command)) return fail(usage, 2);
  const config = loadConfigOrExit();
  const name = values.name?.trim();
  if (command !== 'list' && !nameSchema.safeParse(name).success) {
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
      const created = await insertPartnerKey(store.db, { name: name!, prefix, keyHash, companyUuid: company, now });
      if (!created.ok) return fail(`create: a key named ${name} exists; revoke it first or choose another name`, 1);
      print(key);
      process.stderr.write(`created key ${name} (${prefix}…) for ${company ?? 'every company'}; it is shown once: store it now\n`);
      return 0;
    }
    if (command === 'revoke') {
      if (!(await revokePartnerKey(store.db, name!, now))) return fail(`revoke: no active key named ${name}`, 1);
      print(`revoked key ${name}; it answers 401 from its next request`);
      return 0;
    }
    const keys = await listPartnerKeys(store.db);
    if (keys.length === 0) process.stderr.write('No keys yet: npm run -s partner-keys -- create --name <label>\n');
    for (const key of keys) {
      const state = key.revokedAt === null ? '' : `  revoked ${iso(key.revokedAt)}`;
      print(
        `${key.name}  ${key.prefix}…  company ${key.companyUuid ?? 'any'}  created ${iso(key.createdAt)}  last used ${key.lastUsedAt === null ? 'never' : iso(key.lastUsedAt)}${state}`,
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

process.exitCode = await main(process.argv.slice(2));
