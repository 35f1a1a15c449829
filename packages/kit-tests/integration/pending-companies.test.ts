import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRetention } from '@partner-task-kit/server/retention/retention-job';
import { clearPending, listPending, recordRefusal } from '@partner-task-kit/server/store/tenants.repository';
import { kitCommandOn } from '../helpers/run-command';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';
import { unusedUploadFiles } from '../helpers/upload-stores';
import { tenantModeEnv } from '../helpers/server-process';

const DAY_MS = 24 * 60 * 60_000;
const retention = { outboxMs: 30 * DAY_MS, taskDataMs: undefined };
const noPause = { minPauseMs: 0, pausePerBusy: 0 };

describe.each(testDatabases)('the pending companies on $name', (engine) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(() => database.cleanup());

  const listed = async () => (await listPending(database.store.db)).map(({ companyUuid, refusals }) => [companyUuid, refusals]);

  it('records every refusal: a full list drops the company refused longest ago, and one refused again is refreshed', async () => {
    const { db } = database.store;
    const [a, b, c, d, e] = Array.from({ length: 5 }, () => randomUUID());
    const now = Date.now();
    await recordRefusal(db, { companyUuid: a!, now: now + 1, limit: 3 });
    await recordRefusal(db, { companyUuid: b!, now: now + 2, limit: 3 });
    await recordRefusal(db, { companyUuid: c!, now: now + 3, limit: 3 });
    // Refused again: counted on its one row, and now the most recently seen.
    await recordRefusal(db, { companyUuid: a!, now: now + 4, limit: 3 });
    expect(await listed()).toEqual([
      [a, 2],
      [c, 1],
      [b, 1],
    ]);

    // The list is full: a new company (a real one, after invented ones filled it) is recorded, the oldest goes.
    await recordRefusal(db, { companyUuid: d!, now: now + 5, limit: 3 });
    expect(await listed()).toEqual([
      [d, 1],
      [a, 2],
      [c, 1],
    ]);
    await recordRefusal(db, { companyUuid: e!, now: now + 6, limit: 3 });
    expect(await listed()).toEqual([
      [e, 1],
      [d, 1],
      [a, 2],
    ]);
  });

  it('trims a list found over its limit down to it, keeping the newest', async () => {
    const { db } = database.store;
    const now = Date.now();
    const companies = Array.from({ length: 6 }, () => randomUUID());
    for (const [index, companyUuid] of companies.entries()) await recordRefusal(db, { companyUuid, now: now + index, limit: 10 });
    // A lower limit, as after an upgrade that lowers it: the next new company brings the list down to it at once.
    const newest = randomUUID();
    await recordRefusal(db, { companyUuid: newest, now: now + 10, limit: 3 });
    expect(await listed()).toEqual([
      [newest, 1],
      [companies[5], 1],
      [companies[4], 1],
    ]);
  });

  it('forgets, in the retention run, the companies last refused more than 30 days ago', async () => {
    const { db } = database.store;
    const now = Date.now();
    const [stale, refreshed, recent] = [randomUUID(), randomUUID(), randomUUID()];
    await recordRefusal(db, { companyUuid: stale, now: now - 31 * DAY_MS, limit: 10 });
    await recordRefusal(db, { companyUuid: refreshed, now: now - 40 * DAY_MS, limit: 10 });
    await recordRefusal(db, { companyUuid: refreshed, now: now - DAY_MS, limit: 10 });
    await recordRefusal(db, { companyUuid: recent, now: now - 29 * DAY_MS, limit: 10 });

    await runRetention(database.store, { now, retention, uploadFiles: unusedUploadFiles() }, noPause);
    expect(await listed()).toEqual([
      [refreshed, 2],
      [recent, 1],
    ]);
  });

  it('clears the list, or one company from it', async () => {
    const { db } = database.store;
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    for (const companyUuid of [a, b, c]) await recordRefusal(db, { companyUuid, now: Date.now(), limit: 10 });
    expect(await clearPending(db, b)).toBe(1);
    expect(await clearPending(db, b)).toBe(0);
    expect((await listed()).map(([company]) => company).sort()).toEqual([a, c].sort());
    expect(await clearPending(db)).toBe(2);
    expect(await listed()).toEqual([]);
  });

  it('npm run tenants -- pending clear removes one company (any letter case) or every one, and says how many', async () => {
    const { db } = database.store;
    const url = database.url;
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const now = Date.now();
    for (const [index, companyUuid] of [a, b, c].entries()) await recordRefusal(db, { companyUuid, now: now + index, limit: 10 });

    expect(await kitCommandOn(url, 'tenants', ['pending', 'clear', '--company', b.toUpperCase()], tenantModeEnv())).toEqual({
      code: 0,
      stdout: `removed company ${b} from the pending list\n`,
      stderr: '',
    });
    const listing = await kitCommandOn(url, 'tenants', ['pending'], tenantModeEnv());
    expect(listing.stdout.split('\n').map((line) => line.split('  ')[0])).toEqual([c, a, '']);
    const again = await kitCommandOn(url, 'tenants', ['pending', 'clear', '--company', b], tenantModeEnv());
    expect(again).toMatchObject({ code: 1, stdout: '', stderr: `pending clear: company ${b} is not in the pending list\n` });

    expect(await kitCommandOn(url, 'tenants', ['pending', 'clear'], tenantModeEnv())).toEqual({
      code: 0,
      stdout: 'cleared the pending list: 2 companies removed\n',
      stderr: '',
    });
    expect(await listed()).toEqual([]);
    expect(await kitCommandOn(url, 'tenants', ['pending'], tenantModeEnv())).toMatchObject({
      code: 0,
      stdout: '',
      stderr: 'No company is waiting for a credential.\n',
    });
  }, 60_000);

  it('npm run tenants -- pending refuses what it does not know, and its help names clear', async () => {
    const url = database.url;
    const wrong = await kitCommandOn(url, 'tenants', ['pending', 'purge'], tenantModeEnv());
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^pending: expected nothing or clear, got "purge"\n/);
    expect(wrong.stderr).toContain('pending clear [--company <uuid>]');
    expect(await kitCommandOn(url, 'tenants', ['pending', '--company', randomUUID()], tenantModeEnv())).toMatchObject({
      code: 2,
      stderr: 'pending: --company goes with clear (pending clear --company <uuid>)\n',
    });
    expect(await kitCommandOn(url, 'tenants', ['pending', 'clear', '--company', 'not-a-uuid'], tenantModeEnv())).toMatchObject({
      code: 2,
      stderr: 'pending clear: expected --company <uuid>, got "not-a-uuid"\n',
    });
  }, 60_000);
});
