import type { StoreDb } from './database-schema.ts';

export interface StoredOffer {
  attempt: number;
  basis: string;
  offer: unknown;
  loadedAt: number;
}

export async function findStoredOffer(db: StoreDb, input: { taskId: string; stepId: string }): Promise<StoredOffer | undefined> {
  const row = await db
    .selectFrom('task_offers')
    .select(['attempt', 'basis', 'offer', 'loaded_at'])
    .where('task_id', '=', input.taskId)
    .where('step_id', '=', input.stepId)
    .executeTakeFirst();
  return (
    row && { attempt: Number(row.attempt), basis: row.basis, offer: JSON.parse(row.offer) as unknown, loadedAt: Number(row.loaded_at) }
  );
}

/** Keeps the offer loaded for a step, in place of the one before. */
export async function storeOffer(db: StoreDb, input: { taskId: string; stepId: string } & StoredOffer): Promise<void> {
  const values = {
    attempt: input.attempt,
    basis: input.basis,
    offer: JSON.stringify(input.offer),
    loaded_at: input.loadedAt,
  };
  await db
    .insertInto('task_offers')
    .values({ task_id: input.taskId, step_id: input.stepId, ...values })
    .onConflict((oc) => oc.columns(['task_id', 'step_id']).doUpdateSet(values))
    .execute();
}

/** Before tasks are deleted: their offers go with them (the foreign key would cascade, but SQLite's needs the pragma on). */
export async function deleteOffersOf(db: StoreDb, taskIds: readonly string[]): Promise<void> {
  if (taskIds.length === 0) return;
  await db.deleteFrom('task_offers').where('task_id', 'in', taskIds).execute();
}
