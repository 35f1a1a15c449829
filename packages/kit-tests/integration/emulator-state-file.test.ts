import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '@partner-task-kit/dev';
import type { AssignmentView } from '@partner-task-kit/dev/emulator/task-rules';
import { control } from '../helpers/emulator-control';

let directory: string;
const running: RunningEmulator[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'ptk-emulator-state-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()));
  rmSync(directory, { recursive: true, force: true });
});

async function startWithState(stateFile?: string): Promise<RunningEmulator> {
  const emulator = await startEmulator(stateFile === undefined ? {} : { stateFile, unknownTasks: 'reject' });
  running.push(emulator);
  return emulator;
}

async function restart(emulator: RunningEmulator, stateFile: string): Promise<RunningEmulator> {
  running.splice(running.indexOf(emulator), 1);
  await emulator.close();
  return startWithState(stateFile);
}

describe('the emulator with a state file (npm run dev)', () => {
  it('still knows an assigned task, its status and its audit trail after a restart', async () => {
    const stateFile = join(directory, 'emulator.db');
    const first = await startWithState(stateFile);
    const uuid = randomUUID();
    await control(first.url).assign(uuid);
    await fetch(`${first.url}/control/assignments/${uuid}/actions/start`, { method: 'POST' });

    const second = await restart(first, stateFile);
    const task = await control(second.url).assignment<AssignmentView>(uuid);
    expect(task.status).toBe('inProgress');
    expect(task.trail.map((entry) => (entry.kind === 'portal' ? entry.action : entry.kind))).toEqual(['start']);
  });

  it('still ignores an update older than the last one applied before the restart (spec 3)', async () => {
    const stateFile = join(directory, 'emulator.db');
    const first = await startWithState(stateFile);
    const uuid = randomUUID();
    await control(first.url).assign(uuid);
    first.state.assignments.get(uuid)!.applyPartnerUpdate({ taskStatus: 'completed', sentAt: '2026-01-01T10:00:01Z' }, Date.now());
    first.state.save();

    const second = await restart(first, stateFile);
    const task = second.state.assignments.get(uuid)!;
    expect(task.applyPartnerUpdate({ taskStatus: 'inProgress', sentAt: '2026-01-01T10:00:00Z' }, Date.now())).toBe('obsolete');
    expect(task.status).toBe('completed');
  });

  it('keeps tasks in the order they were assigned, and forgets them all after a reset', async () => {
    const stateFile = join(directory, 'emulator.db');
    const first = await startWithState(stateFile);
    const uuids = [randomUUID(), randomUUID(), randomUUID()];
    for (const uuid of uuids) await control(first.url).assign(uuid);

    const second = await restart(first, stateFile);
    expect(second.state.assignments.list().map((task) => task.context.assignedTaskUuid)).toEqual([...uuids].reverse());
    await fetch(`${second.url}/control/reset`, { method: 'POST' });

    const third = await restart(second, stateFile);
    expect(third.state.assignments.size).toBe(0);
  });

  it('keeps credentials added and settings changed through the control API', async () => {
    const stateFile = join(directory, 'emulator.db');
    const first = await startWithState(stateFile);
    await control(first.url).addCredential({ key: 'tenant-key', secret: 'tenant-secret', companyUuid: randomUUID() });
    await control(first.url).settings({ partnerTaskPermission: false });

    const second = await restart(first, stateFile);
    expect((await control(second.url).credentials()).map((credential) => credential.key)).toContain('tenant-key');
    expect(second.state.settings.partnerTaskPermission).toBe(false);
  });

  it('keeps everything in memory without a state file, as tests want it', async () => {
    const first = await startWithState();
    expect(first.state.persistent).toBe(false);
  });
});
