import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskContext } from '@partner-task-kit/workflow/contract';
import { bearer, newContext, openSession, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

/**
 * docs/architecture.md#how-a-link-is-answered: a GET of a link is answered with the first step of a task nobody has
 * begun, and with the neutral opening screen for any other, read from the store and never written to it.
 */
const page = mkdtempSync(join(tmpdir(), 'ptk-link-pages-'));
const pages = {
  'index.html': 'index',
  'first-screens/safety-training.en.html': 'first step of safety-training',
  'first-screens/availability.en.html': 'first step of availability',
  'first-screens/opening/en.html': 'opening',
  'first-screens/opening/es.html': 'opening es',
};
mkdirSync(join(page, 'first-screens/opening'), { recursive: true });
for (const [file, text] of Object.entries(pages)) writeFileSync(join(page, file), `<!doctype html><title>${text}</title>`);
afterAll(() => rmSync(page, { recursive: true, force: true }));

describe.each(testDatabases)('the HTML a link of a task is answered with on $name', (engine) => {
  let t: TaskApp;
  let origin: string;
  beforeEach(async () => {
    t = await openTaskApp({ engine, pageDirectory: page });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await t.close();
  });

  const link = async (context: TaskContext, extra: Record<string, string> = {}, language = 'en-US,en;q=0.9') => {
    const response = await fetch(`${origin}/?${new URLSearchParams({ ...context, ...extra })}`, {
      headers: { 'accept-language': language, 'accept-encoding': 'identity' },
    });
    const title = /<title>([^<]*)<\/title>/.exec(await response.text())?.[1];
    return { status: response.status, title, cacheControl: response.headers.get('cache-control') };
  };
  const taskCount = async () =>
    Number(
      (
        await t.database.store.db
          .selectFrom('tasks')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers a task not in the store with the first step of its workflow, and creates nothing', async () => {
    expect(await link(newContext())).toEqual({ status: 200, title: 'first step of safety-training', cacheControl: 'private, no-store' });
    expect((await link(newContext(), { workflow: 'availability' })).title).toBe('first step of availability');
    expect(await taskCount()).toBe(0);
  });

  it('answers a task opened but not begun with its first step', async () => {
    const { context } = await openSession(t.app);
    expect((await link(context)).title).toBe('first step of safety-training');
  });

  it('answers a task under way with the opening screen, in the browser’s language, kept by no cache', async () => {
    const { context, token } = await openSession(t.app);
    const saved = await t.app.inject({ method: 'POST', url: '/api/task/steps/welcome', headers: bearer(token), payload: { data: {} } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await link(context)).toEqual({ status: 200, title: 'opening', cacheControl: 'private, no-store' });
    expect((await link(context, {}, 'es-MX,es;q=0.9')).title).toBe('opening es');
    // The link's context in another letter case is the same task (RFC 9562), as for the API.
    expect((await link({ ...context, wxAssignedTaskUuid: context.wxAssignedTaskUuid.toUpperCase() })).title).toBe('opening');
  });

  it('answers a completed task with the opening screen, never its first step', async () => {
    const { context } = await openSession(t.app);
    await t.database.store.db.updateTable('tasks').set({ status: 'completed', current_step: null }).execute();
    expect((await link(context)).title).toBe('opening');
  });

  it('shows no step of a task bound to another worker, flow or company, nor of a workflow the link does not name', async () => {
    const { context } = await openSession(t.app);
    expect((await link({ ...context, wxWorkerUuid: newContext().wxWorkerUuid })).title).toBe('opening');
    expect((await link({ ...context, wxCompanyUuid: newContext().wxCompanyUuid })).title).toBe('opening');
    expect((await link(context, { workflow: 'availability' })).title).toBe('opening');
  });

  it('answers with the opening screen, not an error, when the store cannot be read', async () => {
    const { context } = await openSession(t.app);
    await t.database.store.close();
    expect(await link(context)).toEqual({ status: 200, title: 'opening', cacheControl: 'private, no-store' });
  });

  it('leaves a link with no valid context to the page’s own error (index.html)', async () => {
    expect((await link({ ...newContext(), wxWorkerUuid: 'not-a-uuid' })).title).toBe('index');
  });
});
