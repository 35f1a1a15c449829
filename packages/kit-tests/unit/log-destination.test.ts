import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, logDestination } from '@partner-task-kit/server/logger';

/** Pretty lines written by a logger through logDestination, without colour codes. */
async function prettyLines(write: (log: ReturnType<typeof createLogger>) => void): Promise<string> {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const destination = await logDestination('pretty', false, output);
  expect(destination).toBeDefined();
  write(createLogger('info', destination));
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

describe('logs for a person at a terminal', () => {
  it('writes JSON when asked, and when the output is not a terminal', async () => {
    expect(await logDestination('json', true)).toBeUndefined();
    expect(await logDestination('auto', false)).toBeUndefined();
  });

  it('writes one readable line per event with pino-pretty on a terminal', async () => {
    expect(await logDestination('auto', true, new PassThrough())).toBeDefined();
    const text = await prettyLines((log) => log.warn({ attempt: 2 }, 'waiting for the database: it does not answer yet'));
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: waiting for the database: it does not answer yet\n/);
    expect(text).not.toContain('"level"');
  });

  it('shortens an access line to method, path, status and time', async () => {
    const text = await prettyLines((log) =>
      log.info(
        { req: { method: 'GET', url: '/api/task', hostname: '127.0.0.1' }, res: { statusCode: 200 }, responseTime: 3.1 },
        'request completed',
      ),
    );
    expect(text.split('\n')[0]).toMatch(/INFO: GET \/api\/task 200 3\.1 ms$/);
    expect(text).not.toContain('hostname');
  });
});
