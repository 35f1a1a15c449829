import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { StoreDb } from './database-schema.ts';
import { prepareOnPostgres } from './prepared-statements.ts';
import { isPostgres } from './task-changes.repository.ts';

/**
 * A query of fixed shape, built and compiled by Kysely once per database and then run with new values: Kysely builds,
 * freezes and compiles a query tree on every call, which measured about a sixth of the step endpoint's CPU (packages/kit-tests/bench/api.ts).
 * Written here because Kysely has no prepared-query API and no maintained library adds one.
 *
 * `build` receives `param(name)`, a placeholder standing for that input: Kysely passes it through as a bound parameter,
 * recorded at compile time, replaced by the input's value at each run. A shape that depends on the input (an `in`
 * list, an optional clause) cannot be compiled once and must not be written this way; compiling checks that every
 * placeholder became a parameter and none reached the SQL text.
 */
export function compileOnce<Input extends Record<string, unknown>, Row>(
  build: (db: StoreDb, param: <Name extends keyof Input & string>(name: Name) => Input[Name]) => Compilable<Row>,
): (db: StoreDb, input: Input) => Promise<QueryResult<Row>> {
  // Keyed by the dialect adapter: one per opened store, shared by its transactions (SQLite and Postgres side by side).
  const compiled = new WeakMap<object, { query: CompiledQuery<Row>; slots: (string | undefined)[] }>();
  return (db, input) => {
    const adapter = db.getExecutor().adapter;
    let entry = compiled.get(adapter);
    if (entry === undefined) {
      entry = compile(db, build);
      // Its text never changes: Postgres parses and plans it once per connection.
      if (isPostgres(db)) prepareOnPostgres(entry.query.sql);
      compiled.set(adapter, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((fixed, index) => {
      const name = slots[index];
      return name === undefined ? fixed : input[name];
    });
    return db.executeQuery<Row>({ ...query, parameters });
  };
}

const PLACEHOLDER = '\u0000compile-once:';

function compile<Input, Row>(
  db: StoreDb,
  build: (db: StoreDb, param: <Name extends keyof Input & string>(name: Name) => Input[Name]) => Compilable<Row>,
): { query: CompiledQuery<Row>; slots: (string | undefined)[] } {
  const placeholder = <Name extends keyof Input & string>(name: Name) => `${PLACEHOLDER}${name}` as Input[Name];
  const query = build(db, placeholder).compile();
  if (query.sql.includes(PLACEHOLDER)) throw new Error(`compileOnce: a placeholder was written into the SQL text: ${query.sql}`);
  const slots = query.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(PLACEHOLDER) ? value.slice(PLACEHOLDER.length) : undefined,
  );
  return { query, slots };
}
