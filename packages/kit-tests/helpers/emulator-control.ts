import type { CredentialView } from '@partner-task-kit/dev/emulator/credential-store';
import type { FaultSpec } from '@partner-task-kit/dev/emulator/fault-queue';
import type { LoggedRequest, UpstreamEndpoint } from '@partner-task-kit/dev/emulator/request-log';
import type { EmulatorCredential, EmulatorSettings } from '@partner-task-kit/dev/emulator/emulator-options';

export type RecordedRequest = LoggedRequest;

/** A typed client of the emulator's control API over HTTP, as a partner developer's tooling would use it. */
export function control(emulatorUrl: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${emulatorUrl}/control${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /control${path} answered ${response.status}: ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  return {
    requests: async (endpoint?: UpstreamEndpoint | string): Promise<RecordedRequest[]> => {
      const result = await call<{ requests: RecordedRequest[] } | RecordedRequest[]>(
        'GET',
        `/requests${endpoint ? `?endpoint=${endpoint}` : ''}`,
      );
      return Array.isArray(result) ? result : result.requests;
    },
    fault: (spec: Partial<FaultSpec> & Pick<FaultSpec, 'endpoint' | 'kind'>) => call<unknown>('POST', '/faults', spec),
    clearFaults: () => call<unknown>('DELETE', '/faults'),
    settings: (settings: Partial<EmulatorSettings>) => call<EmulatorSettings>('PUT', '/settings', settings),
    /**
     * Assigns a task with this id, as the portal's flow does before the partner can update it; in `companyUuid` when
     * given (else a random company, which only a partner-wide credential may update).
     */
    assign: (assignedTaskUuid: string, options: { companyUuid?: string } = {}) =>
      call<unknown>('POST', '/assignments', { title: 'A test task', iframeUrl: 'http://127.0.0.1/task', assignedTaskUuid, ...options }),
    /** Adds an API key the emulator accepts, bound to `companyUuid` when given, else partner-wide. */
    addCredential: (credential: EmulatorCredential) => call<CredentialView>('POST', '/credentials', credential),
    /** Deletes an API key: the token endpoint refuses it and the tokens already issued for it answer 401 (docs/platform.md#authentication). */
    revokeCredential: (key: string) =>
      call<{ revoked: string; tokensRevoked: number }>('DELETE', `/credentials/${encodeURIComponent(key)}`),
    credentials: async (): Promise<CredentialView[]> => (await call<{ credentials: CredentialView[] }>('GET', '/credentials')).credentials,
    assignment: <T = unknown>(assignedTaskUuid: string) => call<T>('GET', `/assignments/${assignedTaskUuid}`),
    advanceClock: (advanceMs: number) => call<unknown>('POST', '/clock', { advanceMs }),
  };
}
