/**
 * docs/platform.md#token: the token response's field names and shape are not shown. We accept the OAuth 2.0 standard fields
 * (RFC 6749 5.1: `access_token`, `expires_in`) and common variants, at the top level or under `data`/`result`.
 * When nothing matches we report the keys received, never their values: a value may be a token.
 */
export type TokenResponse = { ok: true; accessToken: string; expiresInMs: number | undefined } | { ok: false; keys: string[] };

const TOKEN_FIELDS = ['access_token', 'accessToken', 'token', 'bearer_token', 'bearerToken'] as const;
const EXPIRES_IN_FIELDS = ['expires_in', 'expiresIn'] as const;
const EXPIRES_AT_FIELDS = ['expires_at', 'expiresAt', 'expiration', 'expiry'] as const;
const ENVELOPES = ['data', 'result'] as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function readTokenResponse(body: unknown, requestedAt: number): TokenResponse {
  const candidates = isObject(body) ? [body, ...ENVELOPES.map((key) => body[key]).filter(isObject)] : [];
  for (const candidate of candidates) {
    const accessToken = firstString(candidate, TOKEN_FIELDS);
    if (accessToken === undefined) continue;
    return { ok: true, accessToken, expiresInMs: readLifetime(candidate, requestedAt) };
  }
  return { ok: false, keys: listKeys(body) };
}

function firstString(object: Json, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value = object[field];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

function readLifetime(object: Json, requestedAt: number): number | undefined {
  for (const field of EXPIRES_IN_FIELDS) {
    const seconds = Number(object[field]);
    if (object[field] !== undefined && Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  }
  for (const field of EXPIRES_AT_FIELDS) {
    const at = readInstant(object[field]);
    if (at !== undefined && at > requestedAt) return at - requestedAt;
  }
  return undefined;
}

/** An absolute expiry: an ISO date, epoch seconds or epoch milliseconds. */
function readInstant(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string') {
    if (/^\d+$/.test(value)) return readInstant(Number(value));
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

function listKeys(body: unknown): string[] {
  if (!isObject(body)) return [Array.isArray(body) ? '(an array)' : `(a ${body === null ? 'null' : typeof body})`];
  const keys: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    keys.push(key);
    if (isObject(value)) keys.push(...Object.keys(value).map((inner) => `${key}.${inner}`));
  }
  return keys;
}
