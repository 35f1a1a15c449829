import type { IncomingHttpHeaders } from 'node:http';
import { EmulatorError } from './emulator-errors.ts';
import type { EmulatorState } from './emulator-state.ts';
import type { IssuedToken, TokenCheck } from './token-store.ts';

/** docs/platform.md#token: HTTP Basic credentials, username the Key and password the Secret (RFC 7617: split at the first colon). */
export function parseBasic(header: string | undefined): { key: string; secret: string } | undefined {
  const match = header === undefined ? null : /^basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/**
 * The bearer tokens a request presents. docs/platform.md#the-update-endpoint uses `Authorization: Bearer`; docs/platform.md#workers shows the workers example with
 * the header name `Application`, so that header is read too (the spec leaves the choice unclear).
 */
export function bearerTokens(headers: IncomingHttpHeaders, alsoApplicationHeader: boolean): string[] {
  const tokens: string[] = [];
  const fromAuthorization = bearerOf(headers.authorization);
  if (fromAuthorization !== undefined) tokens.push(fromAuthorization);
  if (alsoApplicationHeader) {
    const application = headers.application;
    const fromApplication = bearerOf(Array.isArray(application) ? application[0] : application);
    if (fromApplication !== undefined) tokens.push(fromApplication);
  }
  return tokens;
}

function bearerOf(value: string | undefined): string | undefined {
  const match = value === undefined ? null : /^bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

const bearerChallenge = (error: string) => ({ 'www-authenticate': `Bearer error="${error}"` });

/**
 * The token a request is made with: the first valid one presented, or a 401 (docs/platform.md#token: tokens last 60 minutes;
 * docs/platform.md#authentication: a token whose Key was deleted is no longer accepted).
 */
export function requireBearer(state: EmulatorState, headers: IncomingHttpHeaders, alsoApplicationHeader: boolean): IssuedToken {
  const tokens = bearerTokens(headers, alsoApplicationHeader);
  if (tokens.length === 0) {
    const where = alsoApplicationHeader ? 'an Authorization (or Application) header' : 'an Authorization header';
    throw new EmulatorError(401, 'missing_token', `a bearer token is required in ${where}: "Bearer <ACCESS_TOKEN>"`, {
      headers: { 'www-authenticate': 'Bearer' },
    });
  }
  const checks = new Set<TokenCheck>();
  for (const token of tokens) {
    const check = state.tokens.check(token);
    const issued = state.tokens.find(token);
    if (check === 'valid' && issued !== undefined) return issued;
    checks.add(check);
  }
  if (checks.has('revoked')) {
    throw new EmulatorError(401, 'token_revoked', 'the API key this bearer token was issued for was deleted (spec 5)', {
      headers: bearerChallenge('invalid_token'),
    });
  }
  if (checks.has('expired')) {
    throw new EmulatorError(401, 'token_expired', 'the bearer token has expired; obtain a new one (spec 4.1)', {
      headers: bearerChallenge('invalid_token'),
    });
  }
  throw new EmulatorError(401, 'invalid_token', 'the bearer token is not one this emulator issued', {
    headers: bearerChallenge('invalid_token'),
  });
}

/** The Key behind the first presented token this emulator issued (valid or not), for the request log; never the token. */
export function bearerKey(state: EmulatorState, headers: IncomingHttpHeaders, alsoApplicationHeader: boolean): string | undefined {
  for (const token of bearerTokens(headers, alsoApplicationHeader)) {
    const issued = state.tokens.find(token);
    if (issued !== undefined) return issued.key;
  }
  return undefined;
}

/** The media type of a Content-Type header, lower-cased, without parameters such as charset. */
function mediaTypeOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const semicolon = header.indexOf(';');
  return (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

export function requireMediaType(header: string | undefined, expected: string, spec: string): void {
  const actual = mediaTypeOf(header);
  if (actual === expected) return;
  const got = actual === undefined || actual === '' ? 'none' : actual;
  throw new EmulatorError(415, 'unsupported_media_type', `Content-Type must be ${expected} (${spec}); got ${got}`);
}

export function methodNotAllowed(method: string, allowed: string): EmulatorError {
  return new EmulatorError(405, 'method_not_allowed', `${method} is not allowed here; use ${allowed}`, {
    headers: { allow: allowed },
  });
}
