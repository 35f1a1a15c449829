import type { Clock } from '../clock.ts';
import type { UpstreamConfig } from '../config.ts';
import { contextUuidSchema, partnerTaskUpdateSchema, type PartnerTaskUpdate } from '@partner-task-kit/workflow/contract';
import { createHttpTransport, type HttpReply, type HttpRequest } from './http-transport.ts';
import { createTokenCache, type TokenCache, type TokenFetchResult } from './token-cache.ts';
import { readTokenResponse } from './token-response.ts';
import {
  BODY_START_BYTES,
  bodyStart,
  classifyFailureStatus,
  classifyFetchError,
  type RetryableFailure,
  type UpdateOutcome,
  type UpstreamFailure,
  type WorkersOutcome,
} from './upstream-outcome.ts';

const TOKEN_PATH = '/api/servicesecurity/processes/apikey/oauth/token';
const WORKERS_PATH = '/api/serviceworkforce/workers';
const PARTNER_TASK_PATH = '/api/servicetodo/processes/partnerTasks';

/**
 * The most read of a token response: its shape is not shown (docs/platform.md#token), but a token and a few fields,
 * a JWT included, take a few kilobytes. A larger answer is refused as unrecognised, not read on.
 */
const TOKEN_ANSWER_MAX_BYTES = 64 * 1024;
/** The most read of the workers listing (docs/platform.md#workers: paging not shown), which only the doctor asks for. */
const WORKERS_ANSWER_MAX_BYTES = 8 * 1024 * 1024;

export interface WorkforceClient {
  /** docs/platform.md#workers: query parameters are passed through; the body is returned as parsed JSON (shape not shown). */
  listWorkers(query?: Record<string, string | readonly string[]>): Promise<WorkersOutcome>;
  /** docs/platform.md#the-update-endpoint: the record is checked against docs/platform.md#partner-task-update-record before anything is sent. */
  updatePartnerTask(assignedTaskUuid: string, record: PartnerTaskUpdate): Promise<UpdateOutcome>;
  readonly tokenCache: TokenCache;
  /** Closes the kept-alive connections. */
  close(): void;
}

export interface WorkforceClientOptions {
  upstream: UpstreamConfig;
  clock: Clock;
  /** Called for each token request made (the server counts them per tenant in `partner_task_token_requests_total`). */
  onTokenRequest?: () => void;
}

type RequestInit = Omit<HttpRequest, 'timeoutMs'>;
type HttpAnswer = HttpReply & { ok: true };
type Answer = HttpAnswer | { ok: false; failure: RetryableFailure };
type AuthorizedAnswer = HttpAnswer | { ok: false; failure: UpstreamFailure };

export function createWorkforceClient({ upstream, clock, onTokenRequest }: WorkforceClientOptions): WorkforceClient {
  const basic = `Basic ${Buffer.from(`${upstream.credential.key}:${upstream.credential.secret}`).toString('base64')}`;
  const transport = createHttpTransport();

  async function send(url: string, init: RequestInit): Promise<Answer> {
    try {
      // The timeout covers the whole body: a peer that stalls mid-answer is as dead as one that never answers.
      const reply = await transport.send(url, { ...init, timeoutMs: upstream.timeoutMs });
      return { ok: true, ...reply };
    } catch (error) {
      return { ok: false, failure: classifyFetchError(error, upstream.timeoutMs) };
    }
  }

  // docs/platform.md#token: POST, grant_type and scopes in the query, form content type, HTTP Basic key:secret, no body.
  async function fetchToken(): Promise<TokenFetchResult> {
    const url = `${upstream.authUrl}${TOKEN_PATH}?grant_type=client_credentials&scopes=employer`;
    const requestedAt = clock.now();
    const answer = await send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic, accept: 'application/json' },
      maxAnswerBytes: TOKEN_ANSWER_MAX_BYTES,
    });
    if (!answer.ok) return answer;
    const { status, headers, text, truncated } = answer;
    if (status < 200 || status > 299) {
      const failure = classifyFailureStatus(status, headers, text, clock.now(), truncated);
      if (failure.kind === 'retryable') return { ok: false, failure };
      return { ok: false, failure: { kind: 'auth_failed', reason: 'credentials_rejected', status, detail: bodyStart(text, truncated) } };
    }
    if (truncated) {
      const detail = `the token response is larger than ${TOKEN_ANSWER_MAX_BYTES} bytes, more than any token needs; it was not read to its end`;
      return { ok: false, failure: { kind: 'auth_failed', reason: 'unrecognized_token_response', status, detail } };
    }
    const token = readTokenResponse(parseJson(text), requestedAt);
    if (!token.ok) {
      const detail = `token response has no field we recognise as the access token; keys received: ${token.keys.join(', ') || '(none)'}`;
      return { ok: false, failure: { kind: 'auth_failed', reason: 'unrecognized_token_response', status, detail } };
    }
    return { ok: true, token: { accessToken: token.accessToken, expiresInMs: token.expiresInMs } };
  }

  const tokenCache = createTokenCache({
    fetchToken: () => {
      onTokenRequest?.();
      return fetchToken();
    },
    clock,
  });

  /** Sends with the cached bearer token; on a 401 drops that token, renews, and retries exactly once. */
  async function sendAuthorized(url: string, init: RequestInit, retried = false): Promise<AuthorizedAnswer> {
    const token = await tokenCache.get();
    if (!token.ok) return { ok: false, failure: token.failure };
    const answer = await send(url, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${token.accessToken}` },
    });
    if (!answer.ok || answer.status !== 401) return answer;
    tokenCache.invalidate(token.accessToken);
    if (!retried) return sendAuthorized(url, init, true);
    return { ok: false, failure: { kind: 'token_rejected', status: 401, detail: bodyStart(answer.text, answer.truncated) } };
  }

  return {
    tokenCache,
    close: () => transport.close(),

    async listWorkers(query = {}) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        for (const item of typeof value === 'string' ? [value] : value) params.append(name, item);
      }
      const search = params.size > 0 ? `?${params}` : '';
      // docs/platform.md#workers: the workers example names the header "Application"; we send the standard Authorization.
      const answer = await sendAuthorized(`${upstream.baseUrl}${WORKERS_PATH}${search}`, {
        method: 'GET',
        headers: { accept: 'application/json' },
        maxAnswerBytes: WORKERS_ANSWER_MAX_BYTES,
      });
      if (!answer.ok) return answer.failure;
      if (answer.status < 200 || answer.status > 299) {
        return classifyFailureStatus(answer.status, answer.headers, answer.text, clock.now(), answer.truncated);
      }
      if (answer.truncated) {
        const detail = `the workers listing is larger than ${WORKERS_ANSWER_MAX_BYTES} bytes; it was not read to its end (narrow it with query parameters)`;
        return { kind: 'permanent', reason: 'answer_too_large', status: answer.status, detail };
      }
      return { kind: 'ok', status: answer.status, body: parseJson(answer.text) };
    },

    async updatePartnerTask(assignedTaskUuid, record) {
      const checkedUuid = contextUuidSchema.safeParse(assignedTaskUuid);
      const checkedRecord = partnerTaskUpdateSchema.safeParse(record);
      if (!checkedUuid.success || !checkedRecord.success) {
        const issues = [
          ...(checkedUuid.error?.issues.map((issue) => `assignedTaskUuid: ${issue.message}`) ?? []),
          ...(checkedRecord.error?.issues.map((issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`) ?? []),
        ];
        return { kind: 'permanent', reason: 'invalid_record', detail: issues.join('; ') };
      }
      const answer = await sendAuthorized(`${upstream.taskBaseUrl}${PARTNER_TASK_PATH}/${checkedUuid.data}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(checkedRecord.data),
        // docs/platform.md#the-update-endpoint: the success status and body are not shown, so any 2xx counts and its
        // body is not used; of a failure only the start goes into the detail.
        maxAnswerBytes: BODY_START_BYTES,
      });
      if (!answer.ok) return answer.failure;
      if (answer.status >= 200 && answer.status <= 299) return { kind: 'delivered', status: answer.status };
      return classifyFailureStatus(answer.status, answer.headers, answer.text, clock.now(), answer.truncated);
    },
  };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
