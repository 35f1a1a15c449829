import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { AssignedTask, type AssignedTaskSnapshot } from './assignments.ts';
import type { EmulatorCredential, EmulatorSettings } from './emulator-options.ts';

/** What a restarted emulator takes back from its file. */
interface SavedEmulator {
  tasks: AssignedTask[];
  /** Undefined when nothing was saved yet: the emulator starts with the credentials it was given. */
  credentials: EmulatorCredential[] | undefined;
  settings: Partial<EmulatorSettings> | undefined;
}

/** The part of the emulator's state that is saved: what the platform would still know after our server restarted. */
interface SavableState {
  tasks: readonly AssignedTask[];
  credentials: readonly EmulatorCredential[];
  settings: EmulatorSettings;
}

/**
 * The emulator's state in its own SQLite file, so that a development server restarted by `tsx watch` finds the tasks
 * the preview assigned (the platform does not forget them either when a partner's server restarts). Saved: the
 * assigned tasks with their audit trails, the credentials and the settings. Not saved: bearer tokens (the client that
 * held them restarted with the emulator and asks for new ones), the request log, pending faults and the clock's
 * offset, which are a test's or a demo's moment, not the platform's record.
 *
 * One row per task, rewritten only when its revision moved, so a save after each request stays cheap; rows keep their
 * rowid on update, so the tasks come back in the order they were created.
 */
export class EmulatorStateFile {
  private readonly db: Database.Database;
  private readonly savedRevisions = new Map<string, number>();
  private savedMeta = '';

  constructor(readonly filename: string) {
    mkdirSync(dirname(filename), { recursive: true });
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`
      create table if not exists emulator_task (assigned_task_uuid text primary key, snapshot text not null);
      create table if not exists emulator_meta (name text primary key, value text not null);
    `);
  }

  load(): SavedEmulator {
    const rows = this.db.prepare('select assigned_task_uuid, snapshot from emulator_task order by rowid').all() as Array<{
      assigned_task_uuid: string;
      snapshot: string;
    }>;
    const tasks = rows.map((row) => {
      const task = AssignedTask.restore(JSON.parse(row.snapshot) as AssignedTaskSnapshot);
      this.savedRevisions.set(row.assigned_task_uuid, task.revision);
      return task;
    });
    const meta = new Map(
      (this.db.prepare('select name, value from emulator_meta').all() as Array<{ name: string; value: string }>).map((row) => [
        row.name,
        row.value,
      ]),
    );
    const credentials = meta.get('credentials');
    const settings = meta.get('settings');
    this.savedMeta = JSON.stringify([credentials ?? null, settings ?? null]);
    return {
      tasks,
      credentials: credentials === undefined ? undefined : (JSON.parse(credentials) as EmulatorCredential[]),
      settings: settings === undefined ? undefined : (JSON.parse(settings) as Partial<EmulatorSettings>),
    };
  }

  /** Writes what changed since the last save, in one transaction: new and changed tasks, forgotten ones, the setup. */
  save(state: SavableState): void {
    const upsert = this.db.prepare(
      'insert into emulator_task (assigned_task_uuid, snapshot) values (?, ?) on conflict (assigned_task_uuid) do update set snapshot = excluded.snapshot',
    );
    const remove = this.db.prepare('delete from emulator_task where assigned_task_uuid = ?');
    const putMeta = this.db.prepare(
      'insert into emulator_meta (name, value) values (?, ?) on conflict (name) do update set value = excluded.value',
    );
    const credentials = JSON.stringify(state.credentials);
    const settings = JSON.stringify(state.settings);
    const meta = JSON.stringify([credentials, settings]);
    this.db.transaction(() => {
      const present = new Set<string>();
      for (const task of state.tasks) {
        const uuid = task.context.assignedTaskUuid;
        present.add(uuid);
        if (this.savedRevisions.get(uuid) === task.revision) continue;
        upsert.run(uuid, JSON.stringify(task.snapshot()));
        this.savedRevisions.set(uuid, task.revision);
      }
      for (const uuid of this.savedRevisions.keys()) {
        if (present.has(uuid)) continue;
        remove.run(uuid);
        this.savedRevisions.delete(uuid);
      }
      if (meta !== this.savedMeta) {
        putMeta.run('credentials', credentials);
        putMeta.run('settings', settings);
        this.savedMeta = meta;
      }
    })();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
