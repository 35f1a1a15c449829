import { randomUUID } from 'node:crypto';
import type { StoreDb } from './database-schema.ts';

export interface SensitiveReveal {
  keyName: string;
  assignedTaskUuid: string;
  field: string;
  revealedAt: number;
}

export async function recordReveals(db: StoreDb, reveals: readonly SensitiveReveal[]): Promise<void> {
  if (reveals.length === 0) return;
  await db
    .insertInto('sensitive_reveals')
    .values(
      reveals.map((reveal) => ({
        id: randomUUID(),
        key_name: reveal.keyName,
        assigned_task_uuid: reveal.assignedTaskUuid,
        field: reveal.field,
        revealed_at: reveal.revealedAt,
      })),
    )
    .execute();
}

/** The reveals, oldest first; `since` (ms) keeps the later ones. */
export async function listReveals(db: StoreDb, since = 0): Promise<SensitiveReveal[]> {
  const rows = await db
    .selectFrom('sensitive_reveals')
    .selectAll()
    .where('revealed_at', '>=', since)
    .orderBy('revealed_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    keyName: row.key_name,
    assignedTaskUuid: row.assigned_task_uuid,
    field: row.field,
    revealedAt: Number(row.revealed_at),
  }));
}
