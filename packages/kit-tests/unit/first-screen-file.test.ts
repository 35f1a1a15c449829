import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstScreenPicker, openingScreenPicker } from '@partner-task-kit/server/page/first-screen-file';
import { newContext } from '../helpers/task-app';

describe('the prerendered first screen a GET of the task page is answered with', () => {
  const page = mkdtempSync(join(tmpdir(), 'ptk-first-screens-'));
  mkdirSync(join(page, 'first-screens/opening'), { recursive: true });
  for (const name of ['safety-training.en.html', 'safety-training.es.html', 'safety-training.en.html.br', 'notes.txt']) {
    writeFileSync(join(page, 'first-screens', name), '<!doctype html>');
  }
  for (const name of ['en.html', 'es.html', 'en.html.br']) writeFileSync(join(page, 'first-screens/opening', name), '<!doctype html>');
  afterAll(() => rmSync(page, { recursive: true, force: true }));
  const pick = firstScreenPicker(page, 'safety-training');
  const context = newContext();

  it('is the default workflow in the language the browser prefers among those built', () => {
    expect(pick(context, 'en-US,en;q=0.9')).toBe('first-screens/safety-training.en.html');
    expect(pick(context, 'es-MX,es;q=0.9,en;q=0.8')).toBe('first-screens/safety-training.es.html');
    expect(pick(context, 'fr-FR, es;q=0.5')).toBe('first-screens/safety-training.es.html');
    expect(pick(context, 'de-DE,de;q=0.9')).toBe('first-screens/safety-training.en.html');
    expect(pick(context, undefined)).toBe('first-screens/safety-training.en.html');
  });

  it('follows the workflow the link names, and has none for a workflow the build did not prerender', () => {
    expect(pick({ ...context, workflow: 'safety-training' }, 'es')).toBe('first-screens/safety-training.es.html');
    expect(pick({ ...context, workflow: ' ' }, 'es')).toBe('first-screens/safety-training.es.html');
    expect(pick({ ...context, workflow: 'availability' }, 'en')).toBeUndefined();
    expect(pick({ ...context, workflow: '../index' }, 'en')).toBeUndefined();
  });

  it('has none for a link whose context the page would refuse: missing, invalid or repeated values', () => {
    expect(pick({}, 'en')).toBeUndefined();
    expect(pick({ ...context, wxCompanyUuid: undefined }, 'en')).toBeUndefined();
    expect(pick({ ...context, wxWorkerUuid: 'not-a-uuid' }, 'en')).toBeUndefined();
    expect(pick({ ...context, wxAssignedTaskUuid: [context.wxAssignedTaskUuid, context.wxAssignedTaskUuid] }, 'en')).toBeUndefined();
  });

  it('is the workflow the task is stored with when the server names one, whatever the link names', () => {
    expect(pick({ ...context, workflow: 'availability' }, 'es', 'safety-training')).toBe('first-screens/safety-training.es.html');
    expect(pick(context, 'en', 'availability')).toBeUndefined();
  });

  it('offers the opening screen in the language the browser prefers among those built, none where the build wrote none', () => {
    const opening = openingScreenPicker(page);
    expect(opening('es-MX,es;q=0.9')).toBe('first-screens/opening/es.html');
    expect(opening('de-DE')).toBe('first-screens/opening/en.html');
    expect(opening(undefined)).toBe('first-screens/opening/en.html');
    expect(openingScreenPicker(join(page, 'missing'))('en')).toBeUndefined();
  });

  it('has none when the build wrote no first screens', () => {
    expect(firstScreenPicker(join(page, 'missing'), 'safety-training')(context, 'en')).toBeUndefined();
  });
});
