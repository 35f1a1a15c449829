import { sql } from 'kysely';
import type { StoreDb } from './database-schema.ts';

/**
 * One fixed-window counter per key, shared by every instance on one Postgres database (so two instances do not double
 * a limit). One statement: it starts a new window when the old one is over, else counts one more.
 */
export async function incrementRateCounter(
  db: StoreDb,
  input: { key: string; windowMs: number; now: number },
): Promise<{ count: number; windowStart: number }> {
  const { key, windowMs, now } = input;
  const { rows } = await sql<{ count: number; window_start: string | number }>`
    insert into rate_limits (key, window_start, count) values (${key}, ${now}, 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start + ${windowMs} <= ${now} then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start + ${windowMs} <= ${now} then ${now} else rate_limits.window_start end
    returning count, window_start`.execute(db);
  const row = rows[0]!;
  return { count: Number(row.count), windowStart: Number(row.window_start) };
}

/** Counters whose window ended before `before`: nothing reads them again. */
export async function deleteRateCountersBefore(db: StoreDb, before: number): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
