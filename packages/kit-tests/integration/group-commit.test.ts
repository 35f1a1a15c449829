import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseSchema, StoreDb } from '@partner-task-kit/server/store/database-schema';
import { createGroupCommit } from '@partner-task-kit/server/store/group-commit';
import type { Store } from '@partner-task-kit/server/store/store';
import { testDatabases, type TestDatabase } from '../helpers/test-databases';

/** A table of this test's own; `notes` is not one of the store's, so it is reached through raw SQL. */
async function createNotes(store: Store): Promise<void> {
  await sql`create table notes (id integer primary key, body text not null)`.execute(store.db);
}

const insertNote = (trx: StoreDb, id: number, body: string) => sql`insert into notes (id, body) values (${id}, ${body})`.execute(trx);

async function notesIn(db: StoreDb): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select id from notes order by id`.execute(db);
  return rows.map((row) => Number(row.id));
}

class Refused extends Error {}

/**
 * `store.transact` is what every request's write goes through. Whatever the engine does with it (SQLite shares one
 * commit among the units asked for together), each caller must get exactly the outcome its unit would have had alone.
 */
describe.each(testDatabases)('write transactions on $name', (engine) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await engine.open();
    await createNotes(database.store);
  });
  afterEach(async () => {
    await database.cleanup();
  });

  // On Postgres two transactions asked for at once run side by side, and neither waits for the other's commit.
  it.runIf(engine.name === 'sqlite')('lets each unit see the writes of those asked for before it', async () => {
    const { transact } = database.store;
    const [first, second] = await Promise.all([
      transact(async (trx) => {
        await insertNote(trx, 1, 'first');
        return notesIn(trx);
      }),
      transact(async (trx) => {
        await insertNote(trx, 2, 'second');
        return notesIn(trx);
      }),
    ]);
    expect(first).toEqual([1]);
    expect(second).toEqual([1, 2]);
  });

  it('fails a unit that refuses before writing, and keeps the writes of the others', async () => {
    const { transact } = database.store;
    // Committed first: on Postgres a transaction running beside it would not see it. On SQLite the two below still share a commit.
    await transact((trx) => insertNote(trx, 1, 'kept'));
    const outcomes = await Promise.allSettled([
      transact(async (trx) => {
        if ((await notesIn(trx)).includes(1)) throw new Refused('note 1 exists');
      }),
      transact((trx) => insertNote(trx, 3, 'kept too')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(Refused);
    expect(await notesIn(database.store.db)).toEqual([1, 3]);
  });

  it('undoes every write of a unit that fails after writing, and of that unit only', async () => {
    const { transact } = database.store;
    const outcomes = await Promise.allSettled([
      transact(async (trx) => {
        await insertNote(trx, 1, 'kept');
        return 'one';
      }),
      transact(async (trx) => {
        await insertNote(trx, 2, 'undone');
        await insertNote(trx, 20, 'undone too');
        throw new Refused('changed its mind');
      }),
      transact(async (trx) => {
        await insertNote(trx, 3, 'kept');
        return 'three';
      }),
    ]);
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 'one' },
      { status: 'rejected', reason: expect.any(Refused) },
      { status: 'fulfilled', value: 'three' },
    ]);
    expect(await notesIn(database.store.db)).toEqual([1, 3]);
  });

  it('fails a unit whose statement the database refuses, and only that unit', async () => {
    const { transact } = database.store;
    const outcomes = await Promise.allSettled([
      transact((trx) => insertNote(trx, 1, 'kept')),
      // The same key again: the second insert is refused by the primary key.
      transact(async (trx) => {
        await insertNote(trx, 2, 'undone');
        await insertNote(trx, 1, 'duplicate');
      }),
      transact((trx) => insertNote(trx, 3, 'kept')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await notesIn(database.store.db)).toEqual([1, 3]);
  });
});

describe('group commit on SQLite', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await testDatabases.find((engine) => engine.name === 'sqlite')!.open();
    await createNotes(database.store);
  });
  afterEach(async () => {
    await database.cleanup();
  });

  it('commits the units asked for in one turn of the event loop together, and answers each only after that commit', async () => {
    const { transact } = database.store;
    // Another connection to the file sees only what is committed.
    const reader = await database.openStore();
    const seenByOthers: number[][] = [];
    const answeredWhenCommitted: number[][] = [];
    const units = [1, 2, 3].map((id) =>
      transact(async (trx) => {
        await insertNote(trx, id, `note ${id}`);
        seenByOthers.push(await notesIn(reader.db));
      }).then(async () => answeredWhenCommitted.push(await notesIn(reader.db))),
    );
    await Promise.all(units);
    // Inside the shared transaction nothing was visible outside it, not even the units before: they had not committed.
    expect(seenByOthers).toEqual([[], [], []]);
    expect(answeredWhenCommitted).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });

  it('fails every unit of a batch whose commit fails, and stores none of them', async () => {
    await sql`create table parents (id integer primary key)`.execute(database.store.db);
    // Checked at COMMIT only: the insert itself succeeds, the shared commit is refused.
    await sql`create table children (id integer primary key, parent_id integer not null references parents (id) deferrable initially deferred)`.execute(
      database.store.db,
    );
    const { transact } = database.store;
    const outcomes = await Promise.allSettled([
      transact((trx) => insertNote(trx, 1, 'would be kept alone')),
      transact((trx) => sql`insert into children (id, parent_id) values (1, 42)`.execute(trx)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(await notesIn(database.store.db)).toEqual([]);
    // The store goes on: the next unit commits on its own.
    await transact((trx) => insertNote(trx, 2, 'after'));
    expect(await notesIn(database.store.db)).toEqual([2]);
  });
});

describe('group commit when SQLite ends the transaction by itself', () => {
  let directory: string;
  let connection: Database.Database;
  let db: StoreDb;
  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ptk-group-commit-'));
    connection = new Database(join(directory, 'notes.db'));
    db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: connection }) });
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  it('runs the units again alone when a unit that wrote nothing leaves the connection outside its transaction', async () => {
    // As after SQLITE_FULL or SQLITE_IOERR in a read: SQLite has rolled back the shared transaction, and the failing
    // unit issued no write the batch could count (writesIssued stays still here).
    const transact = createGroupCommit(db, { writesIssued: () => 0, inTransaction: () => connection.inTransaction });
    const outcomes = await Promise.allSettled([
      transact((trx) => insertNote(trx, 1, 'kept')),
      transact(async (trx) => {
        await sql`rollback`.execute(trx);
        throw new Refused('the transaction is gone');
      }),
      transact((trx) => insertNote(trx, 3, 'kept')),
    ]);
    // The failing unit's own error, or (this bare connection has no store's ROLLBACK guard) SQLite's about the rollback.
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await notesIn(db)).toEqual([1, 3]);
  });
});
