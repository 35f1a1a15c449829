import { readTaskContext } from '../context/read-task-context';
import type { TaskContext } from '../contract/task-context';
import { apiRequestInit } from './api-request';

let early: { context: TaskContext; response: Promise<Response> } | undefined;

/**
 * Sends POST /api/session from the page's small entry (src/main.tsx) while the app bundle still downloads, instead
 * of after that bundle has run: bench/page.ts measured the session leaving about 1 s into a Slow 4G load,
 * once the bundle was in and parsed. Only for the task page, and only with a valid context: an invalid one makes no
 * API call, exactly as readTaskContext decides for the page.
 */
export function startEarlySession(location: Pick<Location, 'pathname' | 'search'>): void {
  if (location.pathname.startsWith('/preview')) return;
  const reading = readTaskContext(location.search);
  if (!reading.ok) return;
  const response = fetch('/api/session', apiRequestInit(reading.context, 'POST', reading.context));
  // A network failure is reported by the client that takes the response; until then it is not an unhandled rejection.
  response.catch(() => {});
  early = { context: reading.context, response };
}

/** The early response for this context, handed out once; later sessions (renewals, retries) are requested anew. */
export function takeEarlySession(context: TaskContext): Promise<Response> | undefined {
  if (!early || JSON.stringify(early.context) !== JSON.stringify(context)) return undefined;
  const { response } = early;
  early = undefined;
  return response;
}
