import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { contextUuidSchema } from '@partner-task-kit/workflow/contract';
import { EmulatorError, parseControl } from './emulator-errors.ts';
import type { EmulatorState } from './emulator-state.ts';

/**
 * The control API's credentials: the API keys the emulated platform accepts, each bound to one client company or
 * partner-wide. docs/platform.md#authentication: keys are created and deleted at any time, which is how a client rotates them; a test
 * rehearses a rotation by adding the new Key, then deleting the old one.
 */

const credentialSchema = z
  .object({
    // RFC 7617: the user-id of HTTP Basic credentials cannot contain a colon, so such a Key could never get a token.
    key: z
      .string()
      .min(1, 'must not be empty')
      .max(200)
      .refine((key) => !key.includes(':'), 'must not contain ":" (HTTP Basic splits the Key from the Secret there)'),
    secret: z.string().min(1, 'must not be empty').max(1000),
    companyUuid: contextUuidSchema.optional(),
  })
  .strict();

export function registerCredentialRoutes(app: FastifyInstance, state: EmulatorState): void {
  app.get('/credentials', async () => ({ credentials: state.credentials.list() }));

  // 201 with the Key and its company; the Secret is not echoed (docs/platform.md#authentication: it is shown only to its creator).
  app.post('/credentials', async (request, reply) => {
    const credential = parseControl(credentialSchema, request.body);
    const added = state.credentials.add(credential);
    if (added === undefined) {
      throw new EmulatorError(409, 'credential_exists', `a credential with key ${credential.key} exists; rotate by adding a new key`, {
        field: 'key',
      });
    }
    return reply.code(201).send(added);
  });

  // docs/platform.md#authentication: once the Key is deleted, the token endpoint refuses it and the tokens issued for it answer 401.
  app.delete<{ Params: { key: string } }>('/credentials/:key', async (request) => {
    const { key } = request.params;
    const revoked = state.revokeCredential(key);
    if (revoked === undefined) throw new EmulatorError(404, 'credential_not_found', `no credential with key ${key}`);
    return { revoked: key, tokensRevoked: revoked.tokensRevoked };
  });
}
