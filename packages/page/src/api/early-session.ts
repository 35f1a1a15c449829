import { readTaskContext } from '../context/read-task-context.ts';
import { readWorkflowChoice } from '../context/read-workflow-choice.ts';
import type { SessionRequest } from '@partner-task-kit/workflow/contract';
import { apiRequestInit } from './api-request.ts';
import { sessionRequest } from './session-request.ts';

let early: { request: SessionRequest; response: Promise<Response> } | undefined;

/**
 * Sends POST /api/session from the page's small entry (packages/page/src/task/mount-task-page.ts) while the app bundle still
 * downloads, instead of after that bundle has run: packages/kit-tests/bench/page.ts measured the session leaving about 1 s into a Slow 4G
 * load, once the bundle was in and parsed. Only for the task page, and only with a valid context: an invalid one makes
 * no API call, exactly as readTaskContext decides for the page.
 */
export function startEarlySession(location: Pick<Location, 'pathname' | 'search'>): void {
  if (location.pathname.startsWith('/preview')) return;
  const reading = readTaskContext(location.search);
  if (!reading.ok) return;
  const request = sessionRequest(reading.context, readWorkflowChoice(location.search));
  const response = fetch('/api/session', apiRequestInit(reading.context, 'POST', request));
  // A network failure is reported by the client that takes the response; until then it is not an unhandled rejection.
  response.catch(() => {});
  early = { request, response };
}

/** The early response for this very request, handed out once; later sessions (renewals, retries) are requested anew. */
export function takeEarlySession(request: SessionRequest): Promise<Response> | undefined {
  if (!early || JSON.stringify(early.request) !== JSON.stringify(request)) return undefined;
  const { response } = early;
  early = undefined;
  return response;
}
