import type { ZodMiniType } from 'zod/mini';
import { sessionResponseSchema, type SessionResponse, type TaskContext } from '@partner-task-kit/workflow/contract';
import { apiErrorFrom, ApiError, networkError } from './api-error.ts';
import { apiRequestInit } from './api-request.ts';
import { takeEarlySession } from './early-session.ts';
import { sessionRequest } from './session-request.ts';

/**
 * A session token is renewed when less than this is left of it (the server's tokens live 15 minutes): ahead of time
 * while the page is open (open-session.ts), and before a request, so none leaves with a token about to expire.
 */
export const SESSION_RENEW_MARGIN_MS = 5 * 60 * 1000;

/**
 * A request with no answer by then has failed: a stalled mobile network or a captive portal keeps a request open for
 * minutes, and the worker would watch "Saving…" all that time. The bodies are small, so a slow 3G link answers well
 * within it; a save given up here is tried again (packages/page/src/task/step-runner.tsx).
 */
const REQUEST_TIMEOUT_MS = 8_000;

export interface ApiClient {
  readonly context: TaskContext;
  /** The workflow the link names, when it names one. */
  readonly workflow: string | undefined;
  /** POST /api/session: creates or loads the task and keeps the new token in memory. */
  openSession(): Promise<SessionResponse>;
  /** A session call: a valid token is ensured first, and an expired one is renewed and the call retried once. */
  call<T>(method: 'GET' | 'POST', path: string, schema: ZodMiniType<T>, body?: unknown): Promise<T>;
  /**
   * The session token for a request the client does not send itself (an upload's, packages/page/src/api/file-uploads.ts), renewed
   * first when about to expire, or at once with `renew` (the server refused it).
   */
  sessionToken(options?: { renew?: boolean }): Promise<string>;
}

interface HeldToken {
  token: string;
  expiresAt: number;
}

/**
 * docs/decisions/005-no-cookies-session-tokens.md: the token lives in this closure only (no cookie, no storage), is sent as a bearer token, and is
 * renewed before it expires. One client per task context; nothing is shared between two clients.
 *
 * @internal
 */
export function createApiClient(options: {
  context: TaskContext;
  /** The workflow the link names (its `workflow` variable); sent with every session request, taken by a new task only. */
  workflow?: string | undefined;
  fetch?: typeof fetch;
  now?: () => number;
  /** How long a request may wait for its answer (REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
}): ApiClient {
  const { context } = options;
  const request = sessionRequest(context, options.workflow);
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? (() => Date.now());
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  let held: HeldToken | undefined;
  let opening: Promise<SessionResponse> | undefined;

  /** `pending`: a response already on its way for this request (early-session.ts). */
  async function send(method: string, path: string, body: unknown, token?: string, pending?: Promise<Response>): Promise<unknown> {
    // The timeout covers the body too: a response whose body stalls is no answer either.
    const signal = timeoutSignal(timeoutMs);
    let response: Response;
    try {
      response = await (pending ?? doFetch(path, { ...apiRequestInit(context, method, body, token), signal }));
      if (!response.ok) throw await apiErrorFrom(response);
      return await response.json();
    } catch (cause) {
      throw cause instanceof ApiError || cause instanceof SyntaxError ? cause : networkError(cause);
    }
  }

  /** Single flight: a burst of calls during renewal shares one POST /api/session. */
  function openSession(): Promise<SessionResponse> {
    opening ??= (async () => {
      try {
        const session = sessionResponseSchema.parse(await send('POST', '/api/session', request, undefined, takeEarlySession(request)));
        held = { token: session.token, expiresAt: Date.parse(session.expiresAt) };
        return session;
      } finally {
        opening = undefined;
      }
    })();
    return opening;
  }

  async function validToken(): Promise<string> {
    if (!held || held.expiresAt - now() < SESSION_RENEW_MARGIN_MS) await openSession();
    if (!held) throw new ApiError(401, 'invalid_token', 'no session');
    return held.token;
  }

  async function call<T>(method: 'GET' | 'POST', path: string, schema: ZodMiniType<T>, body?: unknown): Promise<T> {
    try {
      return schema.parse(await send(method, path, body, await validToken()));
    } catch (error) {
      // The server restarted with a new secret (emulator mode) or the laptop slept past expiry: renew, retry once.
      if (!(error instanceof ApiError) || (error.code !== 'token_expired' && error.code !== 'invalid_token')) throw error;
      held = undefined;
      return schema.parse(await send(method, path, body, await validToken()));
    }
  }

  async function sessionToken(options?: { renew?: boolean }): Promise<string> {
    if (options?.renew) held = undefined;
    return validToken();
  }

  return { context, workflow: options.workflow, openSession, call, sessionToken };
}

/** AbortSignal.timeout where the browser has it (Safari 16+, Chrome 103+); an AbortController otherwise. */
function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}
