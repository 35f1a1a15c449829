import type { StoreDb } from './database-schema.ts';

/**
 * Runs `work` in a write transaction; resolves once that transaction is committed, never before. `work` may run more
 * than once (a batch rolled back for another unit's failure runs each unit again alone): its database writes count
 * once, so anything else it does must be safe to repeat (a wake-up, a log line), and it must never call upstream.
 */
export type Transact = <T>(work: (trx: StoreDb) => Promise<T>) => Promise<T>;

export interface GroupCommitOptions {
  /**
   * How many statements that may write the connection has issued so far (any count that grows with each one): a unit
   * of work that failed after issuing one may have left writes behind in the shared transaction.
   */
  writesIssued: () => number;
  /**
   * Whether the connection is inside a transaction. SQLite rolls a transaction back by itself on some errors (a full
   * disk, an I/O error), even in a statement that only reads; the units after it would then run outside any
   * transaction, each statement committed on its own.
   */
  inTransaction: () => boolean;
}

/** At most this many units of work share one commit, so a large burst does not make the first ones wait long. */
const MAX_BATCH = 32;

interface Waiting {
  work: (trx: StoreDb) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for SQLite, whose single connection runs one write transaction at a time anyway: the units of work
 * asked for during one turn of the event loop run one after the other inside one BEGIN … COMMIT. Each still sees the
 * writes of those before it, exactly as in separate transactions, and each caller hears of its outcome only once the
 * shared COMMIT has succeeded, so an answer is never sent for a write that could still be lost. On this machine a
 * commit (its WAL writes and file locks) cost more than all the statements of a step (packages/kit-tests/bench/api.ts);
 * a commit shared by a batch costs each of its units a fraction, and under SQLITE_SYNCHRONOUS=FULL one fsync covers the
 * whole batch.
 *
 * Written here because neither Kysely nor better-sqlite3 batches transactions.
 *
 * A unit that fails is isolated without savepoints (which measured costlier than the commit they would share): one
 * that failed before issuing any write (a 4xx decided on what it read, the usual case) just fails; one that may have
 * written makes the whole batch roll back, and then every unit of the batch runs again alone, in order, each in its
 * own transaction, so each gets the outcome it would have had without batching. A failed BEGIN or COMMIT fails every
 * unit of the batch: none of them was stored.
 */
export function createGroupCommit(db: StoreDb, options: GroupCommitOptions): Transact {
  const { writesIssued, inTransaction } = options;
  const queue: Waiting[] = [];
  let scheduled = false;
  let running = false;

  const kick = () => {
    if (scheduled || running || queue.length === 0) return;
    scheduled = true;
    // After the current turn of the event loop, so the requests read in it join the same batch.
    setImmediate(() => {
      scheduled = false;
      void runBatch();
    });
  };

  async function runBatch(): Promise<void> {
    running = true;
    const batch = queue.splice(0, MAX_BATCH);
    try {
      if (batch.length === 1) await alone(batch[0]!);
      else await together(batch);
    } finally {
      running = false;
      kick();
    }
  }

  async function alone(unit: Waiting): Promise<void> {
    try {
      unit.resolve(await db.transaction().execute(unit.work));
    } catch (error) {
      unit.reject(error);
    }
  }

  async function together(batch: Waiting[]): Promise<void> {
    const outcomes: Outcome[] = [];
    /** A unit failed after it may have written, or the transaction was lost: undo everything, run each unit alone. */
    let replayAlone = false;
    try {
      await db.transaction().execute(async (trx) => {
        for (const unit of batch) {
          const before = writesIssued();
          try {
            outcomes.push({ ok: true, value: await unit.work(trx) });
          } catch (error) {
            if (writesIssued() !== before || !inTransaction()) {
              replayAlone = true;
              throw error;
            }
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      if (replayAlone) {
        for (const unit of batch) await alone(unit);
        return;
      }
      for (const unit of batch) unit.reject(error);
      return;
    }
    batch.forEach((unit, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }

  return <T>(work: (trx: StoreDb) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      kick();
    });
}
