import { Server as TusServer } from '@tus/server';
import { apiErrorStatus, errorBodySchema, type ApiErrorCode } from '@partner-task-kit/workflow/contract';

/**
 * tus's refusals by status, for those it writes as a line of text (`Upload-Offset conflict`, `Tus-Resumable
 * Required`...): the codes that say them in the contract's shape (docs/api.md#errors). tus clients act on the status
 * alone, which stays as tus chose it.
 */
const tusRefusals: Partial<Record<number, ApiErrorCode>> = {
  400: 'bad_request',
  403: 'upload_header_missing',
  404: 'not_found',
  409: 'upload_offset_mismatch',
  410: 'upload_expired',
  412: 'tus_resumable_required',
  413: 'upload_too_large',
  500: 'internal_error',
  501: 'upload_extension_unsupported',
};

/** What tus answers for a thrown `{status_code, body}` (423 and 503 included, which tus clients retry): the contract's error body (docs/api.md#errors). */
export function tusError(code: ApiErrorCode, message: string, field?: string): { status_code: number; body: string } {
  return { status_code: apiErrorStatus[code], body: JSON.stringify({ error: { code, message, ...(field ? { field } : {}) } }) };
}

/** A refusal's body as the contract has it: kept when it is one already, else tus's text as its message. */
function contractErrorBody(status: number, body: string): string {
  try {
    if (errorBodySchema.safeParse(JSON.parse(body)).success) return body;
  } catch {
    // tus's own line of text: not JSON.
  }
  const code = tusRefusals[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
  // A 5xx's cause is in the log (upload-routes.ts), never in the answer.
  const message = status >= 500 ? 'The server could not handle this upload request; try again in a moment.' : body.trim();
  // tus's 413 is its Tus-Max-Size, which the declared length passed.
  return JSON.stringify({ error: { code, message, ...(status === 413 ? { field: 'Upload-Length' } : {}) } });
}

type WriteArguments = Parameters<TusServer['write']>;

/**
 * @tus/server whose every refusal is the contract's JSON error with `Content-Type: application/json`: tus writes its
 * answers as web `Response`s from a string, which are `text/plain` unless told otherwise. Every answer of tus's, its
 * own protocol refusals included (412, 409, the header checks), goes through `write`.
 */
export class ContractTusServer extends TusServer {
  override async write(context: WriteArguments[0], headers: WriteArguments[1], status: number, body = ''): ReturnType<TusServer['write']> {
    if (status < 400) return super.write(context, headers, status, body);
    headers.set('content-type', 'application/json; charset=utf-8');
    return super.write(context, headers, status, contractErrorBody(status, body));
  }
}
