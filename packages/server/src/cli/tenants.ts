import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { systemClock } from '../clock.ts';
import { loadConfigOrExit, type Config } from '../config.ts';
import { openStore, type Store } from '../store/store.ts';
import {
  addTenant,
  clearPending,
  listFlowWorkflows,
  listPending,
  listTenants,
  removeFlowWorkflow,
  removeTenant,
  rotateTenant,
  setFlowWorkflow,
} from '../store/tenants.repository.ts';
import type { CheckedKitApp } from '../kit-app.ts';
import { companyKey, metricsLabelOf } from '../tenants/company-credentials.ts';
import { sealSecret } from '../tenants/secret-sealing.ts';
import { createWorkforceClient } from '../upstream/workforce-client.ts';
import { changeWebhook, listWebhooks, webhookActionOf, webhookUsage, type WebhookAction } from './tenant-webhooks.ts';

const usage = `Usage: npm run -s tenants -- <command>
  add --company <uuid> --key <key> [--no-check]   adds a client company; its Secret is read from standard input
  rotate --company <uuid> --key <newKey> [--no-check]   a new credential (new Secret on standard input)
  remove --company <uuid>                          its undelivered updates are held until it is added again
  list                                             one line per tenant: company, key, metrics label, created, rotated
  pending                                          companies refused for lack of a credential: count, first and
                                                   last seen; each kept 30 days after its last refusal
  pending clear [--company <uuid>]                 empties the pending list, or removes one company from it
  map-flow --company <uuid> --flow <uuid> --workflow <id>   the workflow a flow runs when its link names none
  unmap-flow --company <uuid> --flow <uuid>
  flows                                            one line per mapped flow: company, flow, workflow
${webhookUsage}
Runs with the server's environment (CREDENTIALS_KEY, DATABASE_URL, WX_AUTH_URL); a running server applies a change
within 10 s. add and rotate check the credential with one token request (spec 4.1) unless --no-check.`;

const companySchema = z.uuid();
const commands = ['add', 'rotate', 'remove', 'list', 'pending', 'map-flow', 'unmap-flow', 'flows', 'webhook', 'webhooks'];

/** `npm run tenants`: the client companies this deployment acts for, each with its own credential (docs/platform.md#authentication). */
export async function tenantsCommand(argv: string[], kit: CheckedKitApp): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      company: { type: 'string' },
      key: { type: 'string' },
      flow: { type: 'string' },
      workflow: { type: 'string' },
      url: { type: 'string' },
      'rotate-secret': { type: 'boolean' },
      remove: { type: 'boolean' },
      'no-check': { type: 'boolean', default: false },
    },
  });
  const [command, subcommand] = positionals;
  if (command === undefined || !commands.includes(command)) return fail(usage, 2);
  if (command === 'pending' && subcommand !== undefined && subcommand !== 'clear') {
    return fail(`pending: expected nothing or clear, got ${JSON.stringify(subcommand)}\n${usage}`, 2);
  }
  const config = loadConfigOrExit();
  if (config.tenancy.mode !== 'tenants') {
    return fail('tenants: tenant mode is off. Set CREDENTIALS_KEY (base64 of 32 random bytes) and unset WX_API_KEY.', 2);
  }
  const { credentialsKey } = config.tenancy;
  let company: string | undefined;
  if (['add', 'rotate', 'remove', 'map-flow', 'unmap-flow', 'webhook'].includes(command)) {
    const parsed = companySchema.safeParse(values.company?.trim());
    if (!parsed.success) return fail(`${command}: expected --company <uuid>, got ${JSON.stringify(values.company ?? '')}`, 2);
    company = companyKey(parsed.data);
  }
  if (command === 'pending' && values.company !== undefined) {
    if (subcommand !== 'clear') return fail('pending: --company goes with clear (pending clear --company <uuid>)', 2);
    const parsed = companySchema.safeParse(values.company.trim());
    if (!parsed.success) return fail(`pending clear: expected --company <uuid>, got ${JSON.stringify(values.company)}`, 2);
    company = companyKey(parsed.data);
  }
  let key: string | undefined;
  let secret: string | undefined;
  if (command === 'add' || command === 'rotate') {
    key = values.key?.trim();
    if (!key) return fail(`${command}: expected --key <key> (the Key of the integration's API key, spec 5.1)`, 2);
    // Never from the command line: arguments show in `ps` and in shell history.
    secret = await firstLineOfStdin();
    if (!secret) return fail(`${command}: expected the Secret on standard input (first line), got nothing`, 2);
    if (!values['no-check']) {
      const refused = await checkCredential(config, { key, secret });
      if (refused) return fail(`${command}: the platform refused this credential (${refused}); nothing was changed`, 1);
    }
  }

  let flow: string | undefined;
  if (command === 'map-flow' || command === 'unmap-flow') {
    const parsed = companySchema.safeParse(values.flow?.trim());
    if (!parsed.success) return fail(`${command}: expected --flow <wxTaskFlowUuid>, got ${JSON.stringify(values.flow ?? '')}`, 2);
    flow = parsed.data.toLowerCase();
  }
  const workflow = values.workflow?.trim();
  if (command === 'map-flow' && (workflow === undefined || !kit.workflows.find(workflow))) {
    const offered = kit.workflows
      .list()
      .map((definition) => definition.id)
      .join(', ');
    return fail(`map-flow: expected --workflow with one of ${offered}, got ${JSON.stringify(workflow ?? '')}`, 2);
  }

  let webhook: WebhookAction | undefined;
  if (command === 'webhook') {
    const allowInsecureUrl = config.partnerWebhook.kind === 'per-company' && config.partnerWebhook.allowInsecureUrl;
    const asked = webhookActionOf(values, allowInsecureUrl);
    if ('problem' in asked) return fail(asked.problem, 2);
    if (asked.warning !== undefined) process.stderr.write(`${asked.warning}\n`);
    webhook = asked.action;
  }

  const store = await openStore(config.database);
  try {
    if (command === 'webhook') return await changeWebhook(store, company!, webhook!, credentialsKey);
    if (command === 'webhooks') return await listWebhooks(store);
    if (command === 'map-flow') {
      await setFlowWorkflow(store.db, { companyUuid: company!, taskFlowUuid: flow!, workflowId: workflow! });
      print(`flow ${flow} of company ${company} runs ${workflow} when its link names no workflow`);
      return 0;
    }
    if (command === 'unmap-flow') {
      if (!(await removeFlowWorkflow(store.db, { companyUuid: company!, taskFlowUuid: flow! })))
        return fail(`unmap-flow: no mapping for flow ${flow}`, 1);
      print(`flow ${flow} of company ${company} runs the default workflow again`);
      return 0;
    }
    if (command === 'flows') {
      for (const mapping of await listFlowWorkflows(store.db))
        print(`${mapping.companyUuid}  flow ${mapping.taskFlowUuid}  ${mapping.workflowId}`);
      return 0;
    }
    if (command === 'pending' && subcommand === 'clear') return await clear(store, company);
    return await run(store, command, { company, key, secret, credentialsKey });
  } finally {
    await store.close();
  }
}

async function run(
  store: Store,
  command: string,
  input: { company: string | undefined; key: string | undefined; secret: string | undefined; credentialsKey: Buffer },
): Promise<number> {
  const now = systemClock.now();
  const { company, key, secret, credentialsKey } = input;
  switch (command) {
    case 'add':
    case 'rotate': {
      const sealedSecret = sealSecret(secret!, credentialsKey, { companyUuid: company!, apiKey: key! });
      const change = { companyUuid: company!, apiKey: key!, sealedSecret, now };
      const result = command === 'add' ? await addTenant(store.db, change) : await rotateTenant(store.db, change);
      if (!result.ok) {
        return fail(
          result.reason === 'exists'
            ? `add: company ${company} is already a tenant; use rotate to change its credential`
            : `rotate: company ${company} is not a tenant; use add`,
          1,
        );
      }
      print(`${command === 'add' ? 'added' : 'rotated'} company ${company} with key ${key}; a running server uses it within 10 s`);
      return 0;
    }
    case 'remove': {
      const result = await removeTenant(store.db, company!);
      if (!result.ok) return fail(`remove: company ${company} is not a tenant`, 1);
      print(`removed company ${company}; its undelivered updates are held (npm run outbox -- status) until it is added again`);
      return 0;
    }
    case 'list': {
      const tenants = await listTenants(store.db);
      if (tenants.length === 0) process.stderr.write('No tenants yet: npm run -s tenants -- add --company <uuid> --key <key>\n');
      for (const tenant of tenants) {
        print(
          `${tenant.companyUuid}  key ${tenant.apiKey}  metrics ${metricsLabelOf(tenant.companyUuid)}  created ${iso(tenant.createdAt)}  rotated ${tenant.rotatedAt === null ? '-' : iso(tenant.rotatedAt)}`,
        );
      }
      return 0;
    }
    default: {
      const pending = await listPending(store.db);
      if (pending.length === 0) process.stderr.write('No company is waiting for a credential.\n');
      for (const entry of pending) {
        print(`${entry.companyUuid}  refused ${entry.refusals} time(s)  first ${iso(entry.firstSeenAt)}  last ${iso(entry.lastSeenAt)}`);
      }
      return 0;
    }
  }
}

/** `pending clear`: a company that asks again after this is listed again. */
async function clear(store: Store, company: string | undefined): Promise<number> {
  const removed = await clearPending(store.db, company);
  if (company === undefined) {
    print(`cleared the pending list: ${removed} compan${removed === 1 ? 'y' : 'ies'} removed`);
    return 0;
  }
  if (removed === 0) return fail(`pending clear: company ${company} is not in the pending list`, 1);
  print(`removed company ${company} from the pending list`);
  return 0;
}

/** One token request with the new credential (docs/platform.md#token): a wrong Secret is caught here, not at the first delivery. */
async function checkCredential(config: Config, credential: { key: string; secret: string }): Promise<string | undefined> {
  const client = createWorkforceClient({ upstream: { ...config.upstream, credential }, clock: systemClock });
  try {
    const token = await client.tokenCache.get();
    return token.ok ? undefined : token.failure.detail || token.failure.kind;
  } finally {
    client.close();
  }
}

async function firstLineOfStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) process.stderr.write('Secret (first line): ');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line.trim();
  }
  return undefined;
}

const iso = (at: number) => new Date(at).toISOString();

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function fail(message: string, code: number): number {
  process.stderr.write(`${message}\n`);
  return code;
}
