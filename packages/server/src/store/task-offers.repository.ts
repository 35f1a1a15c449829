import type { StoreDb } from './database-schema.ts';

export interface StoredOffer {
  attempt: number;
  basis: string;
  offer: unknown;
  loadedAt: number;
  /** When the partner's backend was last asked for this step's offer, answered or not: `loadedAt` or later. */
  checkedAt: number;
}

export async function findStoredOffer(db: StoreDb, input: { taskId: string; stepId: string }): Promise<StoredOffer | undefined> {
  const row = await db
    .selectFrom('task_offers')
    .select(['attempt', 'basis', 'offer', 'loaded_at', 'checked_at'])
    .where('task_id', '=', input.taskId)
    .where('step_id', '=', input.stepId)
    .executeTakeFirst();
  if (!row) return undefined;
  const loadedAt = Number(row.loaded_at);
  // A row the release before wrote has no check of its own, or an older one than its load (migrations/0021-offer-checks.ts).
  const checkedAt = Math.max(loadedAt, row.checked_at === null ? 0 : Number(row.checked_at));
  return { attempt: Number(row.attempt), basis: row.basis, offer: JSON.parse(row.offer) as unknown, loadedAt, checkedAt };
}

/** Keeps the offer loaded for a step, in place of the one before. */
export async function storeOffer(db: StoreDb, input: { taskId: string; stepId: string } & Omit<StoredOffer, 'checkedAt'>): Promise<void> {
  const values = {
    attempt: input.attempt,
    basis: input.basis,
    offer: JSON.stringify(input.offer),
    loaded_at: input.loadedAt,
    checked_at: input.loadedAt,
  };
  await db
    .insertInto('task_offers')
    .values({ task_id: input.taskId, step_id: input.stepId, ...values })
    .onConflict((oc) => oc.columns(['task_id', 'step_id']).doUpdateSet(values))
    .execute();
}

/**
 * Takes the right to ask the partner's backend again for the step's kept offer: true for the one caller, on any
 * instance, that finds it last asked at or before `askedBefore` (and still of this attempt and basis), which marks it
 * asked `now`; false for every other, which answers the kept offer.
 */
export async function claimOfferCheck(
  db: StoreDb,
  input: { taskId: string; stepId: string; attempt: number; basis: string; askedBefore: number; now: number },
): Promise<boolean> {
  const result = await db
    .updateTable('task_offers')
    .set({ checked_at: input.now })
    .where('task_id', '=', input.taskId)
    .where('step_id', '=', input.stepId)
    .where('attempt', '=', input.attempt)
    .where('basis', '=', input.basis)
    .where('loaded_at', '<=', input.askedBefore)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', input.askedBefore)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The kept offers of these steps of a task, gone: an answer they depend on changed (offer-basis.ts). */
export async function deleteOffersOfSteps(db: StoreDb, input: { taskId: string; stepIds: readonly string[] }): Promise<void> {
  if (input.stepIds.length === 0) return;
  await db.deleteFrom('task_offers').where('task_id', '=', input.taskId).where('step_id', 'in', input.stepIds).execute();
}

/** Before tasks are deleted: their offers go with them (the foreign key would cascade, but SQLite's needs the pragma on). */
export async function deleteOffersOf(db: StoreDb, taskIds: readonly string[]): Promise<void> {
  if (taskIds.length === 0) return;
  await db.deleteFrom('task_offers').where('task_id', 'in', taskIds).execute();
}
