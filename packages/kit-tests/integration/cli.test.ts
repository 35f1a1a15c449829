import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '@partner-task-kit/dev';
import { claimDeliverable, scheduleRetry } from '@partner-task-kit/server/store/outbox.repository';
import { openStore } from '@partner-task-kit/server/store/store';
import { taskServices } from '../helpers/task-services';
import { runKitCommand, runNodeScript } from '../helpers/run-command';

const directory = mkdtempSync(join(tmpdir(), 'ptk-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('starting with bad configuration', () => {
  it('stops with one line per bad variable, naming it', async () => {
    const result = await runNodeScript('packages/kit-tests/fixtures/kit-main.ts', {
      PORT: 'eighty',
      WX_API_KEY: 'key',
      WX_API_SECRET: 'secret',
      WX_AUTH_URL: 'ftp://nope',
      DATABASE_URL: join(directory, 'never.db'),
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('Configuration is invalid:');
    expect(lines.slice(1).map((line) => line.trim().split(':')[0])).toEqual(['PORT', 'WX_AUTH_URL']);
  });
});

describe('npm run doctor', () => {
  it('passes in emulator mode, with no credentials', async () => {
    const result = await runKitCommand('doctor', { DATABASE_URL: join(directory, 'doctor.db') });
    expect(result.stdout).toMatch(/^Checking emulator mode/);
    expect(result.stdout).toMatch(/ok {3}token \(spec 4\.1\): obtained a bearer token/);
    expect(result.stdout).toMatch(/ok {3}workers \(spec 4\.2\): HTTP 200/);
    expect(result.stdout).toContain('All checks passed.');
    expect(result.code).toBe(0);
  });

  it('fails with a next step when the platform refuses the credential, and never prints the secret', async () => {
    const emulator = await startEmulator();
    try {
      const result = await runKitCommand('doctor', {
        WX_API_KEY: 'emulator-key',
        WX_API_SECRET: 'a-wrong-secret-value',
        WX_AUTH_URL: emulator.url,
        WX_BASE_URL: emulator.url,
        WX_TASK_BASE_URL: emulator.url,
        PORTAL_ORIGINS: 'https://portal.example.com',
        SESSION_SECRET: 'x'.repeat(40),
        SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        DATABASE_URL: join(directory, 'doctor-fail.db'),
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/FAIL token \(spec 4\.1\)/);
      expect(result.stdout).toMatch(/next step: Check WX_API_KEY and WX_API_SECRET/);
      expect(result.stdout + result.stderr).not.toContain('a-wrong-secret-value');
    } finally {
      await emulator.close();
    }
  });

  it('names the missing permission when the platform answers 403, and counts the updates it holds', async () => {
    const emulator = await startEmulator();
    const filename = join(directory, 'doctor-forbidden.db');
    const store = await openStore({ kind: 'sqlite', filename });
    try {
      emulator.state.settings.partnerTaskPermission = false;
      // What the relay leaves behind after a 403: a pending update whose last error is the refusal.
      await taskServices(store).open();
      const [update] = await claimDeliverable(store.db, { now: Date.now(), leaseMs: 60_000, limit: 1, workerId: 'relay' });
      await scheduleRetry(store.db, update!.id, { workerId: 'relay', nextAttemptAt: Date.now(), error: 'forbidden: HTTP 403' });
      await store.close();

      const result = await runKitCommand('doctor', {
        WX_API_KEY: 'emulator-key',
        WX_API_SECRET: 'emulator-secret',
        WX_AUTH_URL: emulator.url,
        WX_BASE_URL: emulator.url,
        WX_TASK_BASE_URL: emulator.url,
        PORTAL_ORIGINS: 'https://portal.example.com',
        SESSION_SECRET: 'x'.repeat(40),
        SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        DATABASE_URL: filename,
      });
      expect(result.stdout).toMatch(/ok {3}token \(spec 4\.1\)/);
      expect(result.stdout).toMatch(/FAIL partner-task permission \(spec 4\.3\)/);
      expect(result.stdout).toMatch(/FAIL held updates: 1 update\(s\) held by a 403/);
      expect(result.stdout).toMatch(/next step: The platform answered 403: the integration's role most likely lacks the permission/);
      expect(result.code).toBe(1);
    } finally {
      await store.close();
      await emulator.close();
    }
  });

  it('fails with a next step when the platform cannot be reached', async () => {
    const result = await runKitCommand('doctor', {
      WX_API_KEY: 'key',
      WX_API_SECRET: 'secret',
      WX_AUTH_URL: 'http://127.0.0.1:9',
      WX_BASE_URL: 'http://127.0.0.1:9',
      WX_TASK_BASE_URL: 'http://127.0.0.1:9',
      PORTAL_ORIGINS: 'https://portal.example.com',
      SESSION_SECRET: 'x'.repeat(40),
      SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      DATABASE_URL: join(directory, 'doctor-unreachable.db'),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/next step: Could not reach the platform: check WX_AUTH_URL/);
  });
});
