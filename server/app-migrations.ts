import type { Migration } from 'kysely';

/**
 * This app's own migrations: its tables, beside the engine's. Recorded in `app_migration`, apart from the engine's
 * list, and applied after it, so a migration here may use the engine's tables; named in an order of their own
 * (`0001_…`), never renamed once released (docs/operations.md#an-apps-own-migrations). The app's entries hand them
 * over (main.ts, and the migrate and doctor commands); nothing of the engine imports this file.
 */
export const appMigrations: Record<string, Migration> = {};
