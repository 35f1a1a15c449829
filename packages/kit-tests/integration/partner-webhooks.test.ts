import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '@partner-task-kit/server/clock';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { RunningServer } from '@partner-task-kit/server/server';
import { runKitCommand } from '../helpers/run-command';
import { testDatabase, type BlankTestDatabase } from '../helpers/test-databases';
import { eventOf, startWebhookReceiver, verifies, type ReceivedRequest, type WebhookReceiver } from '../helpers/webhook-receiver';
import { startTestServer } from '../helpers/test-server';
import { tenantModeEnv } from '../helpers/server-process';
import { newContext, restartedTask } from '../helpers/task-app';

const companyA = { company: '5b7c0d2e-1f3a-4b5c-8d6e-7f8091a2b3c4', key: 'webhook-tenant-a', secret: 'webhook-tenant-a-secret-9f1e' };
const companyB = { company: 'c4d5e6f7-0a1b-4c2d-9e3f-405162738495', key: 'webhook-tenant-b', secret: 'webhook-tenant-b-secret-2a7d' };
const DAY_MS = 24 * 60 * 60_000;

const taskOf = (request: ReceivedRequest) => eventOf(request).data.assignedTaskUuid;

describe.each(['sqlite', 'postgres'] as const)('webhooks per company in tenant mode, on %s', (engine) => {
  let directory: string;
  let emulator: RunningEmulator;
  let database: BlankTestDatabase;
  let server: RunningServer | undefined;
  let offsetMs = 0;
  const clock: Clock = { now: () => Date.now() + offsetMs };

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-webhooks-'));
    emulator = await startEmulator({ credentials: [companyA, companyB].map(({ key, secret }) => ({ key, secret })) });
    database = await testDatabase(engine).create();
    offsetMs = 0;
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    await emulator.close();
    await database.cleanup();
    rmSync(directory, { recursive: true, force: true });
  });

  const environment = () => tenantModeEnv(emulator.url, { DATABASE_URL: database.url, RATE_LIMIT_PER_TASK: '0' });
  const tenants = (args: string[], input?: string) => runKitCommand('tenants', environment(), 20_000, args, input);

  const partnerRowsOf = async (company: string) =>
    (await server!.store.db.selectFrom('outbox').select('id').where('lane', '=', 'partner').where('company_uuid', '=', company).execute())
      .length;

  /** Drives tasks of A until one's event arrives as `accepted` says: a CLI change reaches the server at its next refresh. */
  async function eventOnceApplied(receiver: WebhookReceiver, accepted: (event: ReceivedRequest) => boolean) {
    let found: ReceivedRequest | undefined;
    await expect
      .poll(
        async () => {
          const task = await restartedTask(server!.url, newContext({ wxCompanyUuid: companyA.company }));
          await expect.poll(() => receiver.received.some((event) => taskOf(event) === task), { timeout: 10_000 }).toBe(true);
          found = receiver.received.find((event) => taskOf(event) === task);
          return accepted(found!);
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(true);
    return found!;
  }

  it('sends events only for the company with a webhook, signed with its secret, through a URL change, a rotation and its end', async () => {
    const receiver = await startWebhookReceiver({ now: clock.now });
    try {
      for (const { company, key, secret } of [companyA, companyB])
        expect(await tenants(['add', '--company', company, '--key', key, '--no-check'], `${secret}\n`)).toMatchObject({ code: 0 });
      const created = await tenants(['webhook', '--company', companyA.company, '--url', `${receiver.url}/one`]);
      expect(created.code).toBe(0);
      const first = created.stdout.trim();
      server = await startTestServer({ ...environment(), DELIVERY_RETRY_BASE_MS: '50' }, { clock, tenantsRefreshMs: 100 });

      // Only A has a webhook: A's task change is told; B's is not even written.
      const taskOfB = await restartedTask(server!.url, newContext({ wxCompanyUuid: companyB.company }));
      const taskOfA = await restartedTask(server!.url, newContext({ wxCompanyUuid: companyA.company }));
      await expect.poll(() => receiver.received.some((event) => taskOf(event) === taskOfA), { timeout: 10_000 }).toBe(true);
      const event = receiver.received.find((candidate) => taskOf(candidate) === taskOfA)!;
      expect([event.path, verifies(first, event), String(event.headers['webhook-signature']).split(' ')]).toEqual([
        '/hooks/one',
        true,
        [expect.stringMatching(/^v1,/)],
      ]);
      expect(verifies(`whsec_${randomBytes(32).toString('base64')}`, event)).toBe(false);
      expect(await partnerRowsOf(companyB.company)).toBe(0);
      expect(receiver.received.some((candidate) => taskOf(candidate) === taskOfB)).toBe(false);

      // A new URL: the events go there, signed with the same secret.
      expect(await tenants(['webhook', '--company', companyA.company, '--url', `${receiver.url}/two`])).toMatchObject({ code: 0 });
      const moved = await eventOnceApplied(receiver, (candidate) => candidate.path === '/hooks/two');
      expect(verifies(first, moved)).toBe(true);

      // A rotation: for 24 hours a receiver holding either secret verifies each event.
      const rotated = await tenants(['webhook', '--company', companyA.company, '--rotate-secret']);
      expect(rotated.code).toBe(0);
      const second = rotated.stdout.trim();
      expect(second).not.toBe(first);
      const during = await eventOnceApplied(receiver, (candidate) => verifies(second, candidate));
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect([verifies(first, during), verifies(second, during)]).toEqual([true, true]);
      offsetMs = DAY_MS - 60 * 60_000;
      const late = await restartedTask(server!.url, newContext({ wxCompanyUuid: companyA.company }));
      await expect.poll(() => receiver.received.some((candidate) => taskOf(candidate) === late), { timeout: 10_000 }).toBe(true);
      const lateEvent = receiver.received.find((candidate) => taskOf(candidate) === late)!;
      expect([verifies(first, lateEvent), verifies(second, lateEvent)]).toEqual([true, true]);

      // Past 24 hours, on the server's clock: only the new secret signs, without a restart.
      offsetMs = DAY_MS + 60_000;
      const after = await restartedTask(server!.url, newContext({ wxCompanyUuid: companyA.company }));
      await expect.poll(() => receiver.received.some((candidate) => taskOf(candidate) === after), { timeout: 10_000 }).toBe(true);
      const afterEvent = receiver.received.find((candidate) => taskOf(candidate) === after)!;
      expect(String(afterEvent.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect([verifies(first, afterEvent), verifies(second, afterEvent)]).toEqual([false, true]);

      // Removed: the next task changes of A are no longer written.
      expect(await tenants(['webhook', '--company', companyA.company, '--remove'])).toMatchObject({ code: 0 });
      await expect
        .poll(
          async () => {
            const before = await partnerRowsOf(companyA.company);
            await restartedTask(server!.url, newContext({ wxCompanyUuid: companyA.company }));
            return (await partnerRowsOf(companyA.company)) - before;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(0);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
