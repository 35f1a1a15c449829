import { describe, expect, it } from 'vitest';
import { EMULATOR_MODE_CREDENTIAL, parseConfig } from '@partner-task-kit/server/config';

const platform = {
  WX_API_KEY: 'key-123',
  WX_API_SECRET: 'secret-456',
  WX_AUTH_URL: 'https://auth.example.com',
  WX_BASE_URL: 'https://api.example.com/',
  WX_TASK_BASE_URL: 'https://tasks.example.com',
  PORTAL_ORIGINS: 'https://portal.example.com, https://portal2.example.com:8443',
  SESSION_SECRET: 'x'.repeat(40),
  SENSITIVE_DATA_KEYS: 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  WX_COMPANY_UUIDS: '8a1f6c2e-1b7d-4c3a-9e5f-2d4b6a8c0e1f',
  METRICS_PORT: '9464',
};
const credentialsKey = Buffer.alloc(32, 7).toString('base64');

describe('configuration', () => {
  it('runs in emulator mode with no variables at all', () => {
    const result = parseConfig({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      emulatorMode: true,
      upstream: { authUrl: 'http://127.0.0.1:8787/emulator' },
      tenancy: { mode: 'single', credential: EMULATOR_MODE_CREDENTIAL, companies: undefined },
      database: { kind: 'sqlite', filename: './data/partner-task.db' },
      endEvent: { name: 'partner-task-complete', format: 'string' },
    });
  });

  it('reads the platform credential, addresses and origins', () => {
    const result = parseConfig({ ...platform, DATABASE_URL: 'postgres://u@db:5432/app', PORT: '9000' });
    expect(result).toMatchObject({
      ok: true,
      config: {
        port: 9000,
        emulatorMode: false,
        upstream: { baseUrl: 'https://api.example.com', taskBaseUrl: 'https://tasks.example.com' },
        tenancy: { mode: 'single', credential: { key: 'key-123', secret: 'secret-456' } },
        database: { kind: 'postgres', url: 'postgres://u@db:5432/app', preparedStatements: true },
        portalOrigins: ['https://portal.example.com', 'https://portal2.example.com:8443'],
      },
    });
  });

  it("takes npm run dev's server port from DEV_SERVER_PORT, and a free one when it is unset or 0", () => {
    const port = (environment: Record<string, string>) => {
      const result = parseConfig(environment);
      return result.ok ? result.config.devServerPort : result.problems;
    };
    expect(port({ DEV_SERVER_PORT: '8790' })).toBe(8790);
    expect(port({})).toBeUndefined();
    expect(port({ DEV_SERVER_PORT: '0' })).toBeUndefined();
    expect(port({ DEV_SERVER_PORT: '70000' })).toEqual(['DEV_SERVER_PORT: expected a whole number from 0 to 65535, got "70000"']);
  });

  it('names every bad variable and what it expects, on its own line', () => {
    const result = parseConfig({
      PORT: 'eighty',
      WX_AUTH_URL: 'not a url',
      PORTAL_ORIGINS: 'https://portal.example.com/path',
      END_EVENT_FORMAT: 'xml',
      LOG_LEVEL: 'loud',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((line) => line.split(':')[0])).toEqual([
      'PORT',
      'WX_AUTH_URL',
      'PORTAL_ORIGINS',
      'END_EVENT_FORMAT',
      'LOG_LEVEL',
    ]);
    expect(result.problems[0]).toBe('PORT: expected a whole number from 0 to 65535, got "eighty"');
  });

  it('requires the addresses, origins and session secret once a real key is set', () => {
    const result = parseConfig({ WX_API_KEY: 'key-123', WX_API_SECRET: 'secret-456' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((line) => line.split(':')[0])).toEqual([
      'WX_AUTH_URL',
      'WX_BASE_URL',
      'WX_TASK_BASE_URL',
      'PORTAL_ORIGINS',
      'SESSION_SECRET',
      'SENSITIVE_DATA_KEYS',
    ]);
  });

  it('refuses a key without its secret, and a secret without its key', () => {
    const { WX_API_SECRET: _omitted, ...withoutSecret } = platform;
    expect(parseConfig(withoutSecret)).toMatchObject({ ok: false, problems: [expect.stringMatching(/^WX_API_SECRET: /)] });
    expect(parseConfig({ WX_API_SECRET: 's' })).toMatchObject({ ok: false, problems: [expect.stringMatching(/^WX_API_KEY: /)] });
  });

  it('never echoes a secret back in a problem', () => {
    const result = parseConfig({ ...platform, SESSION_SECRET: 'too-short-but-secret' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.join('\n')).not.toContain('too-short-but-secret');
    expect(result.problems).toEqual([
      'SESSION_SECRET: expected at least 32 characters of random text, got a value of 20 characters (not shown)',
    ]);
  });

  it('turns the preview portal on in emulator mode only, unless PREVIEW_ENABLED says otherwise', () => {
    const preview = (env: Record<string, string>) => {
      const result = parseConfig(env);
      return result.ok ? result.config.previewEnabled : result.problems;
    };
    expect(preview({})).toBe(true);
    expect(preview({ PREVIEW_ENABLED: 'false' })).toBe(false);
    expect(preview(platform)).toBe(false);
    expect(preview({ ...platform, PREVIEW_ENABLED: 'true' })).toBe(true);
    expect(preview({ PREVIEW_ENABLED: 'yes' })).toEqual(['PREVIEW_ENABLED: expected one of: true, false, got "yes"']);
  });

  it('reads the delivery backoff, whose ceiling may not be below its base', () => {
    const result = parseConfig({ DELIVERY_RETRY_BASE_MS: '200', DELIVERY_RETRY_MAX_MS: '2000' });
    expect(result).toMatchObject({ ok: true, config: { deliveryRetry: { baseDelayMs: 200, maxDelayMs: 2000 } } });
    expect(parseConfig({})).toMatchObject({ ok: true, config: { deliveryRetry: { baseDelayMs: 1000, maxDelayMs: 600_000 } } });
    expect(parseConfig({ DELIVERY_RETRY_BASE_MS: '5000', DELIVERY_RETRY_MAX_MS: '1000' })).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^DELIVERY_RETRY_MAX_MS: expected at least DELIVERY_RETRY_BASE_MS/)],
    });
  });

  describe('fails closed in production', () => {
    it('refuses emulator mode under NODE_ENV=production, unless ALLOW_EMULATOR_IN_PRODUCTION=true', () => {
      const refused = parseConfig({ NODE_ENV: 'production', WX_API_KEY: '  ' });
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.problems).toEqual([
        expect.stringMatching(/^WX_API_KEY: required when NODE_ENV=production .*ALLOW_EMULATOR_IN_PRODUCTION=true/),
      ]);
      const allowed = parseConfig({ NODE_ENV: 'production', ALLOW_EMULATOR_IN_PRODUCTION: 'true' });
      expect(allowed.ok && allowed.config.emulatorMode).toBe(true);
    });

    it('refuses a plain-HTTP platform address beyond this machine, unless ALLOW_INSECURE_PLATFORM_URL=true (then warns)', () => {
      const refused = parseConfig({ ...platform, WX_TASK_BASE_URL: 'http://tasks.example.com' });
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.problems).toEqual([
        expect.stringMatching(/^WX_TASK_BASE_URL: expected an https URL .*ALLOW_INSECURE_PLATFORM_URL=true/),
      ]);

      const allowed = parseConfig({ ...platform, WX_TASK_BASE_URL: 'http://tasks.example.com', ALLOW_INSECURE_PLATFORM_URL: 'true' });
      expect(allowed.ok && allowed.config.warnings).toEqual([
        expect.stringMatching(/^WX_TASK_BASE_URL is plain HTTP to tasks\.example\.com: .*unencrypted/),
      ]);
    });

    it('accepts plain HTTP on loopback without a word (the emulator, a local proxy)', () => {
      for (const url of ['http://127.0.0.1:9000', 'http://localhost:9000', 'http://[::1]:9000']) {
        const result = parseConfig({ ...platform, WX_AUTH_URL: url });
        expect(result.ok && result.config.warnings).toEqual([]);
      }
    });
  });

  it('reads the client timeouts, and refuses a headers timeout longer than the request timeout', () => {
    const result = parseConfig({ REQUEST_TIMEOUT_MS: '8000', HEADERS_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '3000' });
    expect(result.ok && result.config.timeouts).toEqual({ requestMs: 8000, headersMs: 2000, keepAliveMs: 3000 });
    const wrong = parseConfig({ REQUEST_TIMEOUT_MS: '2000', HEADERS_TIMEOUT_MS: '5000' });
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    expect(wrong.problems).toEqual([expect.stringMatching(/^HEADERS_TIMEOUT_MS: expected at most REQUEST_TIMEOUT_MS/)]);
  });

  it('refuses a DATABASE_URL of an unsupported engine, naming the variable and never echoing the URL', () => {
    for (const url of ['mysql://admin:hunter2@db.example.com/app', 'mongodb+srv://admin:hunter2@cluster.example.net/app']) {
      const result = parseConfig({ DATABASE_URL: url });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const scheme = url.slice(0, url.indexOf('://'));
      expect(result.problems).toEqual([
        `DATABASE_URL: expected a SQLite file path (e.g. ./data/partner-task.db) or a postgres:// URL, got a ${scheme}:// URL, which is not supported`,
      ]);
      expect(result.problems.join('\n')).not.toMatch(/hunter2|admin|example/);
    }
  });

  it('takes a file path, a sqlite: or file: URL, or a postgres:// URL as DATABASE_URL', () => {
    const database = (url: string) => {
      const result = parseConfig({ DATABASE_URL: url });
      return result.ok ? result.config.database : result.problems;
    };
    expect(database('./data/x.db')).toEqual({ kind: 'sqlite', filename: './data/x.db' });
    expect(database('sqlite:./data/x.db')).toEqual({ kind: 'sqlite', filename: './data/x.db' });
    expect(database('file:///tmp/x.db')).toEqual({ kind: 'sqlite', filename: '/tmp/x.db' });
    expect(database('postgresql://u@db/app')).toEqual({ kind: 'postgres', url: 'postgresql://u@db/app', preparedStatements: true });
    // A connection pooler that cannot keep prepared statements (docs/configuration.md#database).
    const unprepared = parseConfig({ DATABASE_URL: 'postgres://u@db/app', POSTGRES_PREPARED_STATEMENTS: 'false' });
    expect(unprepared.ok && unprepared.config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db/app',
      preparedStatements: false,
    });
    const wrong = parseConfig({ DATABASE_URL: 'postgres://u@db/app', POSTGRES_PREPARED_STATEMENTS: 'yes' });
    expect(wrong.ok ? [] : wrong.problems).toEqual([expect.stringContaining('POSTGRES_PREPARED_STATEMENTS')]);
  });

  it('keeps the emulator state file in emulator mode only, and chooses the log format', () => {
    const emulator = parseConfig({ EMULATOR_STATE_FILE: 'data/emulator-9000.db' });
    expect(emulator.ok && emulator.config.emulatorStateFile).toBe('data/emulator-9000.db');
    expect(emulator.ok && emulator.config.logFormat).toBe('auto');
    const withKey = parseConfig({ ...platform, EMULATOR_STATE_FILE: 'data/emulator-9000.db' });
    expect(withKey.ok && withKey.config.emulatorStateFile).toBeUndefined();
    expect(withKey.ok && withKey.config.warnings).toContainEqual(expect.stringMatching(/^EMULATOR_STATE_FILE is ignored/));
    const production = parseConfig({ ...platform, NODE_ENV: 'production' });
    expect(production.ok && production.config.logFormat).toBe('json');
    const asked = parseConfig({ ...platform, NODE_ENV: 'production', LOG_FORMAT: 'pretty' });
    expect(asked.ok && asked.config.logFormat).toBe('pretty');
  });

  describe('where /metrics is served', () => {
    const { METRICS_PORT: _port, ...unmetered } = platform;
    const metricsToken = 'metrics-token-0123456789abcdef0123456789';

    it('serves it on its own loopback listener with METRICS_PORT, and not on the public one', () => {
      expect(parseConfig(platform)).toMatchObject({
        ok: true,
        config: { metrics: { listener: { port: 9464, host: '127.0.0.1' }, token: undefined, public: false }, warnings: [] },
      });
      const everywhere = parseConfig({ ...platform, METRICS_HOST: '0.0.0.0' });
      expect(everywhere.ok && everywhere.config.warnings).toEqual([
        'METRICS_HOST is 0.0.0.0 and METRICS_TOKEN is unset: whoever reaches port 9464 of this machine reads the metrics',
      ]);
      expect(parseConfig({ METRICS_PORT: '8787' })).toEqual({
        ok: false,
        problems: ['METRICS_PORT: expected a port other than PORT (the public listener holds it), got 8787'],
      });
      expect(parseConfig({ METRICS_PORT: 'prometheus' })).toEqual({
        ok: false,
        problems: ['METRICS_PORT: expected a whole number from 0 to 65535, got "prometheus"'],
      });
    });

    it('serves it on the public listener behind METRICS_TOKEN, and refuses a short token without echoing it', () => {
      expect(parseConfig({ ...unmetered, METRICS_TOKEN: metricsToken })).toMatchObject({
        ok: true,
        config: { metrics: { listener: undefined, token: metricsToken, public: true }, warnings: [] },
      });
      const weak = parseConfig({ ...unmetered, METRICS_TOKEN: 'prometheus-password' });
      expect(weak).toEqual({
        ok: false,
        problems: [
          'METRICS_TOKEN: expected at least 32 characters of random text, no spaces (e.g. `openssl rand -base64 32`), ' +
            'got a value of 19 characters (not shown)',
        ],
      });
      const spaced = parseConfig({ ...unmetered, METRICS_TOKEN: `${metricsToken} with spaces` });
      expect(!spaced.ok && spaced.problems.join('\n')).not.toContain(metricsToken);
    });

    it('keeps it open in emulator mode, and outside it serves it nowhere and warns, naming both variables', () => {
      expect(parseConfig({})).toMatchObject({ ok: true, config: { metrics: { listener: undefined, token: undefined, public: true } } });
      const result = parseConfig(unmetered);
      expect(result).toMatchObject({ ok: true, config: { metrics: { listener: undefined, token: undefined, public: false } } });
      expect(result.ok && result.config.warnings).toEqual([
        expect.stringMatching(/^METRICS_PORT and METRICS_TOKEN are unset: GET \/metrics is not served; /),
      ]);
    });
  });

  describe('whose credential acts for a company', () => {
    const { WX_API_KEY: _key, WX_API_SECRET: _secret, WX_COMPANY_UUIDS: _companies, ...addresses } = platform;

    it('restricts the single credential to WX_COMPANY_UUIDS, ignoring spaces and letter case', () => {
      const result = parseConfig({
        ...platform,
        WX_COMPANY_UUIDS: ' 8A1F6C2E-1B7D-4C3A-9E5F-2D4B6A8C0E1F ,0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b',
      });
      expect(result.ok && result.config.tenancy).toEqual({
        mode: 'single',
        credential: { key: 'key-123', secret: 'secret-456' },
        companies: new Set(['8a1f6c2e-1b7d-4c3a-9e5f-2d4b6a8c0e1f', '0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b']),
      });
    });

    it('warns at start that any company is served when WX_COMPANY_UUIDS is unset', () => {
      const result = parseConfig({ ...platform, WX_COMPANY_UUIDS: '' });
      expect(result.ok && result.config.warnings).toEqual([expect.stringMatching(/^WX_COMPANY_UUIDS is unset: .*any company/)]);
    });

    it('turns tenant mode on with CREDENTIALS_KEY and no WX_API_KEY', () => {
      const result = parseConfig({ ...addresses, CREDENTIALS_KEY: credentialsKey });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.config.emulatorMode).toBe(false);
      expect(result.config.tenancy).toEqual({ mode: 'tenants', credentialsKey: Buffer.alloc(32, 7) });
      expect(result.config.warnings).toEqual([]);
    });

    it('refuses CREDENTIALS_KEY with WX_API_KEY (one mode at a time), and a key that is not 32 bytes, without echoing it', () => {
      const both = parseConfig({ ...platform, WX_COMPANY_UUIDS: '', CREDENTIALS_KEY: credentialsKey });
      expect(!both.ok && both.problems).toEqual([expect.stringMatching(/^CREDENTIALS_KEY: expected it or WX_API_KEY, not both/)]);
      const short = parseConfig({ ...addresses, CREDENTIALS_KEY: 'c2hvcnQta2V5' });
      expect(!short.ok && short.problems).toEqual([
        'CREDENTIALS_KEY: expected the base64 of 32 random bytes (e.g. `openssl rand -base64 32`), got a value of 12 characters (not shown)',
      ]);
    });

    it('needs the platform addresses in tenant mode, and refuses WX_COMPANY_UUIDS there', () => {
      const result = parseConfig({ CREDENTIALS_KEY: credentialsKey, WX_COMPANY_UUIDS: '8a1f6c2e-1b7d-4c3a-9e5f-2d4b6a8c0e1f' });
      expect(!result.ok && result.problems.map((line) => line.split(':')[0])).toEqual([
        'WX_COMPANY_UUIDS',
        'WX_AUTH_URL',
        'WX_BASE_URL',
        'WX_TASK_BASE_URL',
        'PORTAL_ORIGINS',
        'SESSION_SECRET',
        'SENSITIVE_DATA_KEYS',
      ]);
    });
  });
});
