import type { EmulatorCredential } from './emulator-options.ts';

/** A credential as the control API shows it: docs/platform.md#authentication, the Secret is shown only at creation, so never here. */
export interface CredentialView {
  key: string;
  /** null: partner-wide, may act for any company. */
  companyUuid: string | null;
}

/**
 * The API keys the emulator accepts, by Key. docs/platform.md#authentication: keys can be created and deleted at any time, which is how
 * clients rotate them; a Key's Secret is fixed at creation (docs/platform.md#authentication), so rotating means adding a new Key, then
 * deleting the old one.
 */
export class CredentialStore {
  private readonly byKey = new Map<string, EmulatorCredential>();

  constructor(initial: readonly EmulatorCredential[]) {
    for (const credential of initial) this.add(credential);
  }

  /** Undefined when the Key exists already: a Key names one credential, and its Secret cannot change (docs/platform.md#authentication). */
  add(credential: EmulatorCredential): CredentialView | undefined {
    if (this.byKey.has(credential.key)) return undefined;
    const { key, secret, companyUuid } = credential;
    // Company uuids are compared lower-cased, as the assignments' context is (RFC 9562: case-insensitive on input).
    const stored = companyUuid === undefined ? { key, secret } : { key, secret, companyUuid: companyUuid.toLowerCase() };
    this.byKey.set(key, stored);
    return viewOf(stored);
  }

  /** False when no credential has that Key. The caller also revokes the tokens issued for it. */
  revoke(key: string): boolean {
    return this.byKey.delete(key);
  }

  /** The credential whose Key and Secret both match: the check of docs/platform.md#token's Basic credentials. */
  authenticate(key: string, secret: string): EmulatorCredential | undefined {
    const credential = this.byKey.get(key);
    return credential?.secret === secret ? credential : undefined;
  }

  /** With their Secrets: only for the emulator's own state file (emulator-state-file.ts), never for an answer. */
  all(): EmulatorCredential[] {
    return [...this.byKey.values()].map((credential) => ({ ...credential }));
  }

  list(): CredentialView[] {
    return [...this.byKey.values()].map(viewOf);
  }
}

function viewOf(credential: EmulatorCredential): CredentialView {
  return { key: credential.key, companyUuid: credential.companyUuid ?? null };
}
