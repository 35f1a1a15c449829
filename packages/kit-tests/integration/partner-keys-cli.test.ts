import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '@partner-task-kit/server/app';
import { parseConfig } from '@partner-task-kit/server/config';
import { createLogger } from '@partner-task-kit/server/logger';
import { openStore } from '@partner-task-kit/server/store/store';
import { runKitCommand } from '../helpers/run-command';
import { TEST_SECRETS } from '../helpers/task-app';
import { testWorkflows } from '../helpers/test-workflows';
import { ManualClock } from '../helpers/manual-clock';

const company = '3a1f5c2e-0000-4000-8000-00000000000c';
let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-partner-keys-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const keysEnvironment = (extra: Record<string, string> = {}) => ({
  WX_AUTH_URL: 'http://127.0.0.1:9/auth',
  WX_BASE_URL: 'http://127.0.0.1:9/base',
  WX_TASK_BASE_URL: 'http://127.0.0.1:9/task',
  PORTAL_ORIGINS: 'https://portal.example.com',
  SESSION_SECRET: TEST_SECRETS.SESSION_SECRET,
  SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  DATABASE_URL: join(directory, 'store.db'),
  ...extra,
});
const tenantMode = { CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64') };
const cli = (args: string[]) => runKitCommand('partner-keys', keysEnvironment(tenantMode), 30_000, args);

describe('npm run partner-keys', () => {
  it('prints a key once, stores only its hash, and the key never reaches the database, a log line or an answer', async () => {
    expect((await cli(['create', '--name', 'crm'])).code).toBe(2);
    const created = await cli(['create', '--name', 'crm', '--company', company]);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^ptk_[A-Za-z0-9_-]{43}$/);
    const listed = await cli(['list']);
    expect(listed.stdout).toContain(`crm  ${key.slice(0, 12)}…  company ${company}`);
    expect(listed.stdout + listed.stderr).not.toContain(key);

    const logLines: string[] = [];
    const parsed = parseConfig({
      ...keysEnvironment(),
      WX_API_KEY: TEST_SECRETS.WX_API_KEY,
      WX_API_SECRET: TEST_SECRETS.WX_API_SECRET,
      LOG_LEVEL: 'trace',
    });
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const store = await openStore(parsed.config.database);
    const log = createLogger(
      'trace',
      new Writable({ write: (chunk: Buffer, _encoding, done) => (logLines.push(chunk.toString()), done()) }),
    );
    const app = await buildApp({
      workflows: testWorkflows,
      config: parsed.config,
      clock: new ManualClock(Date.now()),
      store,
      metrics: new Registry(),
      onUpdateEnqueued: () => {},
      log,
      taskOptions: { rateLimits: false, pageDirectory: false },
    });
    const answers: string[] = [];
    try {
      const headers = { authorization: `Bearer ${key}` };
      for (const url of ['/api/partner/v1/tasks', '/api/partner/v1/tasks/3a1f5c2e-0000-4000-8000-0000000000ff']) {
        const response = await app.inject({ method: 'GET', url, headers });
        answers.push(JSON.stringify(response.headers) + response.body);
      }
      expect(answers[0]).toContain('"tasks":[]');
      expect(answers[1]).toContain('task_not_found');
      const revoked = await cli(['revoke', '--name', 'crm']);
      expect(revoked.code).toBe(0);
      const refused = await app.inject({ method: 'GET', url: '/api/partner/v1/tasks', headers });
      expect(refused.statusCode).toBe(401);
    } finally {
      await app.close();
      await store.close();
    }
    expect(logLines.length).toBeGreaterThan(0);
    const files = ['store.db', 'store.db-wal'].map((name) => join(directory, name)).filter((file) => existsSync(file));
    for (const file of files) expect(readFileSync(file).includes(Buffer.from(key)), file).toBe(false);
    for (const text of [...logLines, ...answers]) expect(text).not.toContain(key);
    expect(logLines.join('')).not.toContain(key.slice(4));
  });
});
