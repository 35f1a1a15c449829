import type { Pool, PoolClient, Submittable } from 'pg';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * SQL texts of fixed shape that run on every request: the statements compiled once (compiled-query.ts) and the step's
 * write (task-writes.repository.ts). On Postgres each goes as a named prepared statement, parsed and planned once per
 * connection instead of at every run (docs/operations.md#the-step-path-on-postgres). Only these: a text that varies
 * with its input (an `in` list) would leave a prepared statement per variant on every connection.
 */
const names = new Map<string, string>();

/**
 * Marks `sql` as one to prepare; its name is fixed for the life of the process. A text that selects `*` is not
 * prepared: once a migration adds a column, Postgres refuses to run such a statement prepared before it ("cached plan
 * must not change result type"), and an old instance runs beside the migrated schema during a rolling upgrade.
 */
export function prepareOnPostgres(sql: string): void {
  if (selectsEveryColumn.test(sql)) return;
  if (!names.has(sql)) names.set(sql, `ptk_${names.size + 1}`);
}

const selectsEveryColumn = /\bselect\s+(?:distinct\s+)?\*|(?:"\w+"|\w+)\.\*/i;

/**
 * The pool as Kysely sees it, sending the marked texts by name (node-postgres keeps which names each connection has
 * prepared, and sends Parse only the first time). Written here because Kysely passes no statement name to the driver.
 */
export function preparingPool(pool: Pool): PostgresPool {
  return {
    connect: async () => preparingClient(await pool.connect()),
    end: () => pool.end(),
  };
}

function preparingClient(client: PoolClient): PostgresPoolClient {
  function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters: readonly unknown[] = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // A cursor (Kysely's streaming) is passed through as it came.
    if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as unknown as Submittable) as unknown as PostgresCursor<R>;
    const name = names.get(sqlOrCursor);
    const values = [...parameters];
    const result = name === undefined ? client.query(sqlOrCursor, values) : client.query({ name, text: sqlOrCursor, values });
    return result as Promise<PostgresQueryResult<R>>;
  }
  return { query, release: () => client.release() };
}
