import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader } from 'jose';
import { maskValue } from '@partner-task-kit/workflow';
import type { SealedValue } from './sensitive-values.ts';
import { PADDING_BLOCK, padValue, unpadValue } from './value-padding.ts';

/**
 * The keys that seal sensitive values at rest (docs/configuration.md#sensitive-values). Each value is a compact JWE
 * (`dir`, `A256GCM`: AES-256-GCM under the key itself) whose protected header names its key (`kid`), so a key added
 * later seals new values while the older ones still open (docs/operations.md#sensitive-values). The value is padded
 * first (value-padding.ts), which the header says with `ptk-pad`, a critical parameter: a reader that does not know it
 * refuses the value rather than return it padded. A value sealed before padding has no `ptk-pad` and opens as it is.
 */
export interface SensitiveKey {
  kid: string;
  /** 32 bytes. */
  key: Uint8Array;
}

export interface SensitiveKeyRing {
  /** Seals under the first key of SENSITIVE_DATA_KEYS. */
  seal(value: string): Promise<SealedValue>;
  /** The clear value; throws when its key is not in the ring or the value was altered. */
  open(sealed: SealedValue): Promise<string>;
}

const KID = /^[A-Za-z0-9._-]{1,64}$/;
/** The protected header's parameter saying the plaintext is padded to a multiple of its value in bytes. */
const PADDING_PARAMETER = 'ptk-pad';
const crit = { [PADDING_PARAMETER]: true };

/** Parses `<kid>:<base64url of 32 bytes>[,<kid>:<key>...]`; the problems never quote a key. */
export function parseSensitiveKeys(text: string): { ok: true; keys: SensitiveKey[] } | { ok: false; problem: string } {
  const keys: SensitiveKey[] = [];
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return { ok: false, problem: 'at least one <kid>:<key>' };
  for (const [index, part] of parts.entries()) {
    const colon = part.indexOf(':');
    const kid = colon < 0 ? '' : part.slice(0, colon);
    const encoded = colon < 0 ? '' : part.slice(colon + 1);
    if (!KID.test(kid)) {
      return { ok: false, problem: `entry ${index + 1} to start with a key id (1 to 64 letters, digits, . _ -) and a colon` };
    }
    if (keys.some((key) => key.kid === kid)) return { ok: false, problem: `key ids that differ, got "${kid}" twice` };
    const key = Buffer.from(encoded, 'base64url');
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(encoded) || key.length !== 32) {
      return {
        ok: false,
        problem: `key "${kid}" to be the base64url of 32 random bytes (e.g. \`openssl rand -base64 32 | tr '+/' '-_'\`), got ${encoded.length} characters`,
      };
    }
    keys.push({ kid, key: new Uint8Array(key) });
  }
  return { ok: true, keys };
}

function sensitiveKeyRing(keys: readonly SensitiveKey[]): SensitiveKeyRing {
  const [current] = keys;
  if (current === undefined) throw new Error('a sensitive key ring needs at least one key');
  const byKid = new Map(keys.map((key) => [key.kid, key.key]));
  const encoder = new TextEncoder();
  return {
    async seal(value) {
      const jwe = await new CompactEncrypt(padValue(encoder.encode(value)))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: current.kid, [PADDING_PARAMETER]: PADDING_BLOCK, crit: [PADDING_PARAMETER] })
        .encrypt(current.key, { crit });
      return { $sealed: jwe, masked: maskValue(value) };
    },
    async open(sealed) {
      const { kid } = decodeProtectedHeader(sealed.$sealed);
      const key = kid === undefined ? undefined : byKid.get(kid);
      if (key === undefined) throw new Error(`a sensitive value is sealed under key "${kid ?? '(none)'}", which SENSITIVE_DATA_KEYS lacks`);
      const { plaintext, protectedHeader } = await compactDecrypt(sealed.$sealed, key, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        crit,
      });
      const padding = protectedHeader[PADDING_PARAMETER];
      return new TextDecoder().decode(padding === undefined ? plaintext : unpadValue(plaintext, padding));
    },
  };
}

/**
 * Emulator mode without SENSITIVE_DATA_KEYS: one key made on the first start and kept in the data directory (mode
 * 0600), so values sealed by one run open in the next. Written with `wx`: two processes starting at once keep one key.
 */
function emulatorKeyFrom(path: string): SensitiveKey[] {
  const read = () => parseSensitiveKeys(readFileSync(path, 'utf8'));
  try {
    const made = `emulator:${randomBytes(32).toString('base64url')}\n`;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, made, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const parsed = read();
  if (!parsed.ok) throw new Error(`${path}: expected ${parsed.problem}; delete the file to make a new key`);
  return parsed.keys;
}

/** The ring of a configuration: its SENSITIVE_DATA_KEYS, or emulator mode's kept key. */
export function sensitiveKeyRingOf(config: { sensitiveKeys: { keys: SensitiveKey[] } | { keyFile: string } }): SensitiveKeyRing {
  const source = config.sensitiveKeys;
  return sensitiveKeyRing('keys' in source ? source.keys : emulatorKeyFrom(source.keyFile));
}
