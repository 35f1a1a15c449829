import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EmulatorError } from './emulator-error';
import type { TokenShape } from './emulator-options';
import type { EmulatorState } from './emulator-state';
import { methodNotAllowed, parseBasic, requireMediaType } from './http-auth';
import type { IssuedToken } from './token-store';
import type { UpstreamRecorder } from './upstream-hooks';
import { ALL_METHODS } from './upstream-methods';

export const TOKEN_PATH = '/api/servicesecurity/processes/apikey/oauth/token';

/** spec 4.1: the exact query the token endpoint expects. Extra parameters are tolerated, these two are checked. */
const requiredQuery = { grant_type: 'client_credentials', scopes: 'employer' } as const;

/** spec 4.1: obtain a token with the client-credentials flow. Each part of the request is checked as the spec shows it. */
export function registerTokenRoute(app: FastifyInstance, state: EmulatorState, recorder: UpstreamRecorder): void {
  app.route({
    method: ALL_METHODS,
    url: TOKEN_PATH,
    ...recorder.hooksFor('token'),
    handler: async (request, reply) => {
      // spec 4.1: "Request body: none shown". An empty body is expected; a form body is tolerated and only logged.
      recorder.recordBody(request, typeof request.body === 'string' ? request.body : undefined);
      if (request.method !== 'POST') throw methodNotAllowed(request.method, 'POST');
      const query = request.query as Record<string, unknown>;
      for (const [name, expected] of Object.entries(requiredQuery)) {
        if (query[name] !== expected) {
          const problem = query[name] === undefined ? 'is missing' : 'has the wrong value';
          throw new EmulatorError(400, 'invalid_query', `query parameter ${name} ${problem}; expected ${name}=${expected} (spec 4.1)`, {
            field: name,
          });
        }
      }
      requireMediaType(request.headers['content-type'], 'application/x-www-form-urlencoded', 'spec 4.1');
      const credential = basicCredential(request);
      const key = state.authenticate(credential.key, credential.secret);
      if (key === undefined) {
        throw new EmulatorError(401, 'invalid_credentials', 'the API key and secret are not valid (spec 5)', {
          headers: { 'www-authenticate': 'Basic realm="workforce"' },
        });
      }
      const issued = state.tokens.issue(key);
      // RFC 6749 5.1: token responses must not be cached.
      void reply.header('cache-control', 'no-store');
      return tokenBody(state.settings.tokenShape, issued, state.tokens.lifetimeSeconds);
    },
  });
}

function basicCredential(request: FastifyRequest): { key: string; secret: string } {
  const credential = parseBasic(request.headers.authorization);
  if (credential !== undefined) return credential;
  throw new EmulatorError(401, 'missing_credentials', 'HTTP Basic credentials are required: the API key as user name, the secret as password (spec 4.1)', {
    headers: { 'www-authenticate': 'Basic realm="workforce"' },
  });
}

/**
 * spec 4.1: the response's field names and shape are not shown. 'oauth' is the OAuth 2.0 standard (RFC 6749 5.1); the
 * other shapes exist so the client's tolerance can be tested (DESIGN decision 7).
 */
export function tokenBody(shape: TokenShape, issued: IssuedToken, lifetimeSeconds: number): Record<string, unknown> {
  switch (shape) {
    case 'oauth':
      return { access_token: issued.token, token_type: 'Bearer', expires_in: lifetimeSeconds, scope: 'employer' };
    case 'camelCase':
      return { accessToken: issued.token, expiresIn: lifetimeSeconds, tokenType: 'Bearer' };
    case 'noExpiry':
      return { access_token: issued.token };
    case 'unrecognized':
      return { jwt: issued.token, ttl: lifetimeSeconds };
  }
}
