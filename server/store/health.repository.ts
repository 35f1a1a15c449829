import { sql } from 'kysely';
import type { StoreDb } from './database-schema';

/** For readiness (`GET /readyz`): resolves when the database answers a trivial query, rejects otherwise. */
export async function pingDatabase(db: StoreDb): Promise<void> {
  await sql`select 1`.execute(db);
}
