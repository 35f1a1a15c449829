import pg from 'pg';
import type { CustomTypesConfig } from 'pg';
import { PostgresDialect } from 'kysely';

/**
 * node-postgres returns int8 as a string (it may exceed 2^53). Every bigint here is epoch milliseconds, an id or a
 * count, all far below 2^53, so they are parsed as numbers: per pool, never through pg's global parsers, so other
 * pg users in the process are not changed.
 */
const int8AsNumber: CustomTypesConfig = {
  getTypeParser: (oid, format) =>
    oid === pg.types.builtins.INT8 && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
};

/** A plain identifier only: it is placed in the connection's search_path. */
const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;

export function createPostgresPool(url: string, schema: string | undefined): pg.Pool {
  if (schema !== undefined && !schemaName.test(schema)) {
    throw new Error(`Postgres schema "${schema}" is not a plain lower-case identifier`);
  }
  return new pg.Pool({
    connectionString: url,
    types: int8AsNumber,
    // Fail fast while the database is away: a request gets its error in seconds instead of queueing for a connection.
    connectionTimeoutMillis: 5_000,
    // Unqualified table names resolve to the schema on every connection of the pool, migrations included.
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
}

export function createPostgresDialect(pool: pg.Pool): PostgresDialect {
  return new PostgresDialect({ pool });
}
