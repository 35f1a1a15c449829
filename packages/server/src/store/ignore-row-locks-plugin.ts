import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SelectQueryNode,
  type UnknownRow,
} from 'kysely';

const rowLockModifiers = new Set(['ForUpdate', 'ForNoKeyUpdate', 'ForShare', 'ForKeyShare', 'NoWait', 'SkipLocked']);

class RowLockRemover extends OperationNodeTransformer {
  protected override transformSelectQuery(node: SelectQueryNode): SelectQueryNode {
    const transformed = super.transformSelectQuery(node);
    if (!transformed.endModifiers) return transformed;
    const endModifiers = transformed.endModifiers.filter((m) => m.modifier === undefined || !rowLockModifiers.has(m.modifier));
    return { ...transformed, endModifiers };
  }
}

/**
 * Lets repositories write Postgres row locks (`FOR UPDATE`, `SKIP LOCKED`, docs/decisions/003-per-task-order-with-leases.md) once for both engines.
 * SQLite has no row locks and rejects the syntax; it needs none, because a write transaction there already excludes
 * every other writer (and this store begins them IMMEDIATE). So on SQLite the lock clauses are dropped.
 */
export class IgnoreRowLocksPlugin implements KyselyPlugin {
  readonly #remover = new RowLockRemover();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#remover.transformNode(args.node, args.queryId);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
