import { CompiledQuery, sql } from 'kysely';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { StoreDb } from '@partner-task-kit/server/store/database-schema';
import type { Store } from '@partner-task-kit/server/store/store';

/** How one statement reads the outbox table: through an index (its name), by primary key, or by a scan of the table. */
export interface TableAccess {
  /** The plan's own words, for a failing test's message. */
  detail: string;
  /** The index read, or undefined for a scan of the table or a lookup by primary key. */
  index: string | undefined;
  /** A lookup of given ids through the primary key (the claim's outer update takes the ids its CTE picked). */
  byId: boolean;
}

/** Kysely hands every statement to its plugins before compiling it: the statements `run` issued are kept here. */
class StatementRecorder implements KyselyPlugin {
  readonly statements: { node: RootOperationNode; queryId: QueryId }[] = [];

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.statements.push({ node: args.node, queryId: args.queryId });
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

class RolledBack extends Error {}

/**
 * Runs `run` in a transaction that is rolled back, then asks the engine how each statement it issued reads `table`:
 * SQLite's EXPLAIN QUERY PLAN, Postgres's EXPLAIN with sequential scans off (so a usable index is always preferred to
 * reading the whole table, and a missing one shows as a scan).
 */
export async function tableAccesses(store: Store, table: string, run: (db: StoreDb) => Promise<unknown>): Promise<TableAccess[]> {
  const accesses: TableAccess[] = [];
  await store.db
    .transaction()
    .execute(async (trx) => {
      const recorder = new StatementRecorder();
      await run(trx.withPlugin(recorder));
      if (store.dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      for (const { node, queryId } of recorder.statements) {
        const statement = trx.getExecutor().compileQuery(node, queryId);
        accesses.push(
          ...(store.dialect === 'sqlite' ? await sqlitePlan(trx, statement, table) : await postgresPlan(trx, statement, table)),
        );
      }
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return accesses;
}

async function sqlitePlan(db: StoreDb, statement: CompiledQuery, table: string): Promise<TableAccess[]> {
  // SQLite names a table by its alias in the plan: `"outbox" as "o"` is `o` there.
  const names = new Set([table, ...[...statement.sql.matchAll(new RegExp(`"${table}" as "(\\w+)"`, 'g'))].map((match) => match[1])]);
  const { rows } = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
  );
  return rows.flatMap(({ detail }) => {
    const match = /^(?:SCAN|SEARCH) (\S+)(?: USING (?:COVERING )?INDEX (\S+))?/.exec(detail);
    if (!match || !names.has(match[1]!)) return [];
    return [{ detail, index: match[2], byId: /USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(detail) }];
  });
}

interface PostgresPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PostgresPlanNode[];
}

async function postgresPlan(db: StoreDb, statement: CompiledQuery, table: string): Promise<TableAccess[]> {
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PostgresPlanNode }] }>(
    CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]),
  );
  const primaryKey = `${table}_pkey`;
  const accesses: TableAccess[] = [];
  const visit = (node: PostgresPlanNode) => {
    const type = node['Node Type'];
    if (node['Relation Name'] === table && type !== 'ModifyTable') {
      // A bitmap heap scan reads the table through the bitmap index scans below it.
      const indexes = type === 'Bitmap Heap Scan' ? bitmapIndexesOf(node) : [node['Index Name']];
      for (const index of indexes) {
        const byId = index === primaryKey && /\(id = /.test(node['Index Cond'] ?? '');
        accesses.push({ detail: `${type} on ${table}${index === undefined ? '' : ` using ${index}`}`, index, byId });
      }
      if (type === 'Bitmap Heap Scan') return;
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(rows[0]!['QUERY PLAN'][0].Plan);
  return accesses;
}

function bitmapIndexesOf(node: PostgresPlanNode): (string | undefined)[] {
  if (node['Node Type'] === 'Bitmap Index Scan') return [node['Index Name']];
  return (node.Plans ?? []).flatMap(bitmapIndexesOf);
}

/**
 * The indexes of `table` whose first column is `column`, and on Postgres also the partial ones whose condition fixes
 * `column` to one value (`where ... and lane = 'platform'`), from the engine's catalog.
 */
export async function indexesLedBy(store: Store, table: string, column: string): Promise<Set<string>> {
  const { rows } =
    store.dialect === 'sqlite'
      ? await sql<{ name: string }>`
          select list.name from pragma_index_list(${table}) as list, pragma_index_info(list.name) as info
          where info.seqno = 0 and info.name = ${column}`.execute(store.db)
      : await sql<{ name: string }>`
          select index_class.relname as name
          from pg_index as ix
          join pg_class as index_class on index_class.oid = ix.indexrelid
          join pg_class as table_class on table_class.oid = ix.indrelid
          join pg_attribute as attribute on attribute.attrelid = table_class.oid and attribute.attnum = ix.indkey[0]
          where table_class.relname = ${table} and table_class.relnamespace = current_schema()::regnamespace
            and (attribute.attname = ${column}
              or position(('(' || ${column} || ' = ''') in coalesce(pg_get_expr(ix.indpred, ix.indrelid), '')) > 0)`.execute(store.db);
  return new Set(rows.map((row) => row.name));
}
