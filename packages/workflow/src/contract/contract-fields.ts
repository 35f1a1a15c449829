import { z } from 'zod/mini';
import type { TaskStatus } from './task-status.ts';

/**
 * Fields of the page <-> server contract, in zod/mini: the page parses every answer with these, and zod/mini costs far
 * less than classic zod of the task page's budget (100 KB gzip of JavaScript, docs/development.md#benchmarks). `partner-task-update.ts` (classic zod, the
 * server's docs/platform.md#partner-task-update-record record) is therefore never imported by the page, not even by its lazy preview
 * (packages/page/src/api/get-task-updates.ts); its types are, and the checks below fail to compile if the two drift apart.
 */
const statuses = ['ready', 'inProgress', 'completed', 'error'] as const satisfies readonly TaskStatus[];
type MissingStatus = Exclude<TaskStatus, (typeof statuses)[number]>;
const everyStatusListed: MissingStatus extends never ? true : false = true;
void everyStatusListed;

export const taskStatusField = z.enum(statuses);

/** ISO 8601 with a zone designator, as docs/platform.md#partner-task-update-record sentAt. */
export const isoDateTimeField = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

/** docs/platform.md#task-context: "UUID strings"; the version is not shown, so any 8-4-4-4-12 hexadecimal form (as contextUuidSchema). */
export const contextUuidField = z.guid({ error: 'must be a UUID (8-4-4-4-12 hexadecimal)' });

export const nonNegativeInt = z.int().check(z.minimum(0));
export const positiveInt = z.int().check(z.minimum(1));
