import { describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';
import { planDevServers } from '@partner-task-kit/vite-plugin/cli/dev-environment';

function plan(environment: Record<string, string>, serverPort: number, pagePort: number) {
  const parsed = parseConfig(environment);
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return planDevServers(environment, parsed.config, serverPort, pagePort);
}

describe('npm run dev: what depends on PORT', () => {
  it('opens the page on PORT and puts the server on a port of its own, allowed to frame and receive the end event', () => {
    const dev = plan({}, 40123, 8787);
    expect(dev.openUrl).toBe('http://localhost:8787/preview');
    expect(dev.serverEnvironment).toMatchObject({
      PORT: '40123',
      HOST: '127.0.0.1',
      PORTAL_ORIGINS: 'http://localhost:8787,http://127.0.0.1:8787',
      EMULATOR_STATE_FILE: 'data/emulator-8787.db',
    });
    // The default port keeps the default database, which the CLI commands read.
    expect(dev.serverEnvironment.DATABASE_URL).toBeUndefined();
  });

  it('gives another PORT its own database and emulator file, so two dev servers in one checkout never share tasks', () => {
    const dev = plan({ PORT: '9100' }, 40124, 9100);
    expect(dev.serverEnvironment).toMatchObject({
      DATABASE_URL: './data/partner-task-9100.db',
      EMULATOR_STATE_FILE: 'data/emulator-9100.db',
    });
    expect(plan({ PORT: '9100', DATABASE_URL: './mine.db' }, 40125, 9100).serverEnvironment.DATABASE_URL).toBe('./mine.db');
  });

  it('keeps no emulator state and fills in no origins with a real credential', () => {
    const platform = {
      WX_API_KEY: 'key',
      WX_API_SECRET: 'secret',
      WX_AUTH_URL: 'https://auth.example.com',
      WX_BASE_URL: 'https://api.example.com',
      WX_TASK_BASE_URL: 'https://tasks.example.com',
      PORTAL_ORIGINS: 'https://portal.example.com',
      SESSION_SECRET: 'x'.repeat(40),
      SENSITIVE_DATA_KEYS: 'test:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    };
    const dev = plan(platform, 40126, 8787);
    expect(dev.emulatorStateFile).toBeUndefined();
    expect(dev.serverEnvironment.EMULATOR_STATE_FILE).toBeUndefined();
    expect(dev.serverEnvironment.PORTAL_ORIGINS).toBe('https://portal.example.com,http://localhost:8787,http://127.0.0.1:8787');
    // No proxy in front, and a restart at each change: no shutdown grace, unless asked for.
    expect(dev.serverEnvironment.SHUTDOWN_GRACE_MS).toBe('0');
    expect(plan({ ...platform, SHUTDOWN_GRACE_MS: '2000' }, 40127, 8787).serverEnvironment.SHUTDOWN_GRACE_MS).toBe('2000');
  });
});
