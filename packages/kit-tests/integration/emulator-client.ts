import { EMULATOR_CREDENTIAL } from '@partner-task-kit/dev';
import type { ErrorBody } from '@partner-task-kit/dev/emulator/emulator-errors';
import type { AssignmentView } from '@partner-task-kit/dev/emulator/task-rules';

/** Test helpers that talk to an emulator over real HTTP, the way a client would. */

export const TOKEN_PATH = '/api/servicesecurity/processes/apikey/oauth/token';
export const TOKEN_QUERY = '?grant_type=client_credentials&scopes=employer';
export const WORKERS_PATH = '/api/serviceworkforce/workers';
export const partnerTaskPath = (uuid: string) => `/api/servicetodo/processes/partnerTasks/${uuid}`;

export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

/** The exact token request of docs/platform.md#token. */
export function requestToken(baseUrl: string, credential: { key: string; secret: string } = EMULATOR_CREDENTIAL): Promise<Response> {
  return fetch(`${baseUrl}${TOKEN_PATH}${TOKEN_QUERY}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(credential.key, credential.secret) },
  });
}

export async function fetchToken(baseUrl: string): Promise<string> {
  const response = await requestToken(baseUrl);
  if (response.status !== 200) throw new Error(`token request failed with ${response.status}`);
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

export interface PartnerTaskAnswerBody {
  assignedTaskUuid: string;
  applied: boolean;
  outcome: 'applied' | 'obsolete' | 'duplicate';
  taskStatus: string;
}

/** docs/platform.md#the-update-endpoint: POST a partner update; `body` is sent as JSON unless it is already a string. */
export function postUpdate(
  baseUrl: string,
  token: string,
  uuid: string,
  body: unknown,
  contentType = 'application/json',
): Promise<Response> {
  return fetch(`${baseUrl}${partnerTaskPath(uuid)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A control API call: the status and the parsed JSON body. */
export async function controlRequest<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl}/control${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

export async function createAssignment(baseUrl: string, options: Record<string, unknown> = {}): Promise<AssignmentView> {
  const { status, body } = await controlRequest<AssignmentView>(baseUrl, 'POST', '/assignments', {
    title: 'Safety quiz',
    iframeUrl: 'https://partner.example.com/task',
    ...options,
  });
  if (status !== 201) throw new Error(`creating an assignment failed with ${status}: ${JSON.stringify(body)}`);
  return body;
}

export async function getAssignment(baseUrl: string, uuid: string): Promise<AssignmentView> {
  return (await controlRequest<AssignmentView>(baseUrl, 'GET', `/assignments/${uuid}`)).body;
}

export function act(baseUrl: string, uuid: string, action: string) {
  return controlRequest<AssignmentView & Partial<ErrorBody>>(baseUrl, 'POST', `/assignments/${uuid}/actions/${action}`);
}

/** A docs/platform.md#partner-task-update-record record at `second` seconds past a fixed instant, so tests can order updates plainly. */
export function update(taskStatus: string, second: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const sentAt = new Date(Date.UTC(2026, 10, 22, 10, 0, second)).toISOString();
  return { taskStatus, sentAt, ...extra };
}

export async function errorOf(response: Response): Promise<ErrorBody['error']> {
  return ((await response.json()) as ErrorBody).error;
}
