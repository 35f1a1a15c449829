import { ApiError } from '../api/api-error.ts';
import type { ShellTexts } from '../ui/i18n/shell-texts.ts';

export type ErrorKind = keyof ShellTexts['errors'];

/** What happened and what to do, by failure class; never the raw server message, which is for developers. */
export function errorKind(error: unknown): ErrorKind {
  if (!(error instanceof ApiError)) return 'unknown';
  if (error.code === 'network') return 'network';
  if (error.status >= 500) return 'server';
  switch (error.code) {
    case 'rate_limited':
      return 'rate_limited';
    case 'invalid_token':
    case 'token_expired':
    case 'missing_token':
    case 'wrong_task':
      return 'session';
    case 'task_closed':
    case 'step_out_of_order':
    case 'nothing_to_restart':
    case 'back_not_allowed':
    case 'restart_not_allowed':
      return 'task_changed';
    case 'unknown_company':
    case 'task_rejected':
    case 'context_mismatch':
    case 'unknown_workflow':
      return error.code;
    case 'invalid_step_data':
    case 'invalid_body':
      return 'invalid';
    default:
      return 'unknown';
  }
}

/** After these the cached task is out of date: the page reloads it from the server. */
export function isStaleTaskError(error: unknown): boolean {
  return errorKind(error) === 'task_changed';
}
