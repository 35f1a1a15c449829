import type pg from 'pg';
import type { CustomTypesConfig, Pool } from 'pg';
import { PostgresDialect } from 'kysely';
import { preparingPool } from './prepared-statements.ts';

/**
 * node-postgres returns int8 as a string (it may exceed 2^53). Every bigint here is epoch milliseconds, an id or a
 * count, all far below 2^53, so they are parsed as numbers: per pool, never through pg's global parsers, so other
 * pg users in the process are not changed.
 */
function int8AsNumber(types: typeof pg.types): CustomTypesConfig {
  return {
    getTypeParser: (oid, format) =>
      oid === types.builtins.INT8 && format !== 'binary' ? (value: string) => Number(value) : types.getTypeParser(oid, format),
  };
}

/** A plain identifier only: it is placed in the connection's search_path. */
const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;

/** node-postgres is loaded only by a server that uses Postgres: a SQLite deployment's memory does not carry it. */
export async function createPostgresPool(url: string, schema: string | undefined): Promise<Pool> {
  if (schema !== undefined && !schemaName.test(schema)) {
    throw new Error(`Postgres schema "${schema}" is not a plain lower-case identifier`);
  }
  const { default: nodePostgres } = await import('pg');
  return new nodePostgres.Pool({
    connectionString: url,
    types: int8AsNumber(nodePostgres.types),
    // Fail fast while the database is away: a request gets its error in seconds instead of queueing for a connection.
    connectionTimeoutMillis: 5_000,
    // Unqualified table names resolve to the schema on every connection of the pool, migrations included.
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
}

/** `preparedStatements`: the fixed statements go as named prepared statements (prepared-statements.ts). */
export function createPostgresDialect(pool: Pool, options: { preparedStatements: boolean }): PostgresDialect {
  return new PostgresDialect({ pool: options.preparedStatements ? preparingPool(pool) : pool });
}
