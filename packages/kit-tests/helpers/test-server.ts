import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseConfig } from '@partner-task-kit/server/config';
import { createLogger } from '@partner-task-kit/server/logger';
import { startServer, type RunningServer, type StartServerOptions } from '@partner-task-kit/server/server';
import { testDatabase, type BlankTestDatabase } from './test-databases';
import { testWorkflows } from './test-workflows';

export interface TestServerOptions extends Partial<Omit<StartServerOptions, 'log'>> {
  /** Where it keeps its data, unless `env` names a DATABASE_URL; by default a SQLite database of its own. */
  database?: BlankTestDatabase;
  /**
   * Serves a built page of one file (index.html), so `GET /` runs the page route (a first screen or index.html) as
   * in production; without it, and without `pageDirectory`, there is no page.
   */
  page?: boolean;
}

/** A whole server started in this process, over real HTTP on loopback. */
export interface TestServer extends RunningServer {
  /** Every line it logged (JSON, at LOG_LEVEL), in order. */
  readonly logLines: string[];
  /** Closes it, then removes what it was given of its own (its database, its page). */
  close(): Promise<void>;
}

/**
 * The server as server.ts starts it, configured by `env` as by the environment (PORT 0: any free port; the workflows
 * the engine's tests run). What it needs and the test did not give, it gets of its own, removed when it closes.
 */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const { database, page, ...startOptions } = options;
  const owned: Array<() => Promise<void> | void> = [];
  const removeOwned = async () => {
    for (const remove of owned.splice(0).reverse()) await remove();
  };
  try {
    let databaseUrl = env.DATABASE_URL;
    if (databaseUrl === undefined) {
      const own = database ?? (await testDatabase('sqlite').create());
      if (!database) owned.push(() => own.cleanup());
      databaseUrl = own.url;
    }
    const parsed = parseConfig({ PORT: '0', ...env, DATABASE_URL: databaseUrl });
    if (!parsed.ok) throw new Error(`test configuration is invalid: ${parsed.problems.join('; ')}`);
    let pageDirectory = startOptions.pageDirectory;
    if (page && pageDirectory === undefined) {
      const directory = mkdtempSync(join(tmpdir(), 'ptk-page-'));
      owned.push(() => rmSync(directory, { recursive: true, force: true }));
      pageDirectory = join(directory, 'page');
      mkdirSync(pageDirectory);
      writeFileSync(join(pageDirectory, 'index.html'), '<!doctype html><title>task</title>');
    }
    const logLines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(...chunk.toString().split('\n').filter(Boolean));
        callback();
      },
    });
    const server = await startServer(parsed.config, {
      workflows: testWorkflows,
      ...startOptions,
      ...(pageDirectory === undefined ? {} : { pageDirectory }),
      log: createLogger(parsed.config.logLevel, stream),
    });
    return {
      ...server,
      logLines,
      close: async () => {
        await server.close();
        await removeOwned();
      },
    };
  } catch (error) {
    await removeOwned();
    throw error;
  }
}
