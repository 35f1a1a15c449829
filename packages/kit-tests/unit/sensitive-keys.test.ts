import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@partner-task-kit/server/config';
import { parseSensitiveKeys, sensitiveKeyRingOf, type SensitiveKey } from '@partner-task-kit/server/sensitive/sensitive-keys';
import { maskStepData, sealStepData } from '@partner-task-kit/server/sensitive/step-data-sealing';
import { workAuthorizationSchemas } from '../fixtures/workflows/work-authorization/definition';

const newKey = (kid: string): SensitiveKey => ({ kid, key: new Uint8Array(randomBytes(32)) });
/** The ring the server makes of SENSITIVE_DATA_KEYS holding these keys, first the current one. */
const sensitiveKeyRing = (keys: SensitiveKey[]) => sensitiveKeyRingOf({ sensitiveKeys: { keys } });
const asVariable = (keys: SensitiveKey[]) => keys.map(({ kid, key }) => `${kid}:${Buffer.from(key).toString('base64url')}`).join(',');

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('the sensitive key ring', () => {
  it('seals with AES-256-GCM under the first key, naming it in the header, and opens what it sealed', async () => {
    const ring = sensitiveKeyRing([newKey('2026-11'), newKey('2026-01')]);
    const sealed = await ring.seal('AB123489');
    expect(sealed.masked).toBe('••••89');
    expect(sealed.$sealed).not.toContain('AB123489');
    expect(decodeProtectedHeader(sealed.$sealed)).toEqual({ alg: 'dir', enc: 'A256GCM', kid: '2026-11', 'ptk-pad': 32, crit: ['ptk-pad'] });
    expect(await ring.open(sealed)).toBe('AB123489');
    // A fresh IV each time: the same value never seals to the same text.
    expect((await ring.seal('AB123489')).$sealed).not.toBe(sealed.$sealed);
  });

  it('after a rotation seals under the new key and still opens values sealed under the old one', async () => {
    const old = newKey('old');
    const before = await sensitiveKeyRing([old]).seal('XY987654');
    const rotated = sensitiveKeyRing([newKey('new'), old]);
    expect(await rotated.open(before)).toBe('XY987654');
    expect(decodeProtectedHeader((await rotated.seal('XY987654')).$sealed).kid).toBe('new');
    // Without the old key the value cannot be read, and the error names the key, not the value.
    await expect(sensitiveKeyRing([newKey('new')]).open(before)).rejects.toThrow(/sealed under key "old", which SENSITIVE_DATA_KEYS lacks/);
  });

  it('pads each value to a block of 32 bytes before sealing, so the ciphertext says no more than the mask', async () => {
    const ring = sensitiveKeyRing([newKey('k')]);
    const cipherBytes = async (value: string) => Buffer.from((await ring.seal(value)).$sealed.split('.')[3]!, 'base64url').length;
    const [short, long] = [await ring.seal('abc'), await ring.seal('AB12345678')];
    expect(short.$sealed).toHaveLength(long.$sealed.length);
    expect(await cipherBytes('abc')).toBe(32);
    expect(await cipherBytes('AB12345678')).toBe(32);
    // One byte is the padding's own: 31 bytes fill a block, 32 take two.
    expect(await cipherBytes('x'.repeat(31))).toBe(32);
    expect(await cipherBytes('x'.repeat(32))).toBe(64);
    // The padding comes off whatever the value ends with, and an empty value stays empty.
    for (const value of ['abc', 'AB12345678', 'x'.repeat(32), 'ends in zeros\0\0', 'ends in \u0080', 'é€😀', '']) {
      expect(await ring.open(await ring.seal(value))).toBe(value);
    }
  });

  it('still opens a value sealed before values were padded', async () => {
    // Sealed by the ring before padding (a JWE of the bare value, its ciphertext as long as the value), with this key.
    const before = {
      $sealed:
        'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiYmVmb3JlLXBhZGRpbmcifQ..PPz6kyeN1IMRI_C5.JSq_oKUpNOc.3XI1XAbsMzXXx1Diy6vFtQ',
      masked: '••••89',
    };
    const key = { kid: 'before-padding', key: new Uint8Array(Buffer.from('cHRrLXRlc3Qtc2Vuc2l0aXZlLWtleS0zMi1ieXRlcyE', 'base64url')) };
    expect(await sensitiveKeyRing([newKey('new'), key]).open(before)).toBe('AB123489');
  });

  it('refuses a value altered at rest', async () => {
    const ring = sensitiveKeyRing([newKey('k')]);
    const sealed = await ring.seal('AB123489');
    const parts = sealed.$sealed.split('.');
    const cipher = Buffer.from(parts[3]!, 'base64url');
    cipher[0] = cipher[0]! ^ 1;
    parts[3] = cipher.toString('base64url');
    await expect(ring.open({ ...sealed, $sealed: parts.join('.') })).rejects.toThrow();
  });

  it('parses SENSITIVE_DATA_KEYS and says what is wrong without quoting a key', () => {
    const keys = [newKey('a'), newKey('b')];
    const parsed = parseSensitiveKeys(asVariable(keys));
    expect(parsed.ok && parsed.keys.map((key) => key.kid)).toEqual(['a', 'b']);
    expect(parseSensitiveKeys('a:c2hvcnQ')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/key "a" to be the base64url of 32 random bytes/),
    });
    expect(parseSensitiveKeys(Buffer.alloc(32).toString('base64url'))).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/key id/),
    });
    expect(parseSensitiveKeys(asVariable([keys[0]!, keys[0]!]))).toMatchObject({ ok: false, problem: expect.stringMatching(/twice/) });

    const secret = Buffer.from(randomBytes(31)).toString('base64url');
    const result = parseConfig({ SENSITIVE_DATA_KEYS: `k:${secret}` });
    expect(!result.ok && result.problems).toEqual([
      expect.stringMatching(/^SENSITIVE_DATA_KEYS: expected key "k" to be the base64url of 32 random bytes/),
    ]);
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it('in emulator mode without the variable makes one key beside the SQLite file, mode 0600, and keeps it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sensitive-key-'));
    directories.push(directory);
    const result = parseConfig({ DATABASE_URL: join(directory, 'store.db') });
    if (!result.ok) throw new Error(result.problems.join('; '));
    expect(result.config.sensitiveKeys).toEqual({ keyFile: join(directory, 'sensitive-data.key') });
    const sealed = await sensitiveKeyRingOf(result.config).seal('AB123489');
    const file = join(directory, 'sensitive-data.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = readFileSync(file, 'utf8');
    // A second start (or a second process) reads the same key.
    expect(await sensitiveKeyRingOf(result.config).open(sealed)).toBe('AB123489');
    expect(readFileSync(file, 'utf8')).toBe(written);
  });
});

describe('a step with a sensitive field', () => {
  const schema = workAuthorizationSchemas['national-id'];

  it('is stored sealed and reported masked', async () => {
    const ring = sensitiveKeyRing([newKey('k')]);
    const stored = (await sealStepData(ring, schema, { nationalId: 'AB123489' })) as { nationalId: { $sealed: string; masked: string } };
    expect(stored.nationalId.masked).toBe('••••89');
    expect(JSON.stringify(stored)).not.toContain('AB123489');
    expect(await ring.open(stored.nationalId)).toBe('AB123489');
    expect(maskStepData(schema, { nationalId: 'AB123489' })).toEqual({ nationalId: '••••89' });
  });

  it('leaves the data of a step without one as it is', async () => {
    const ring = sensitiveKeyRing([newKey('k')]);
    const data = { postcode: 'AB1 2CD' };
    expect(await sealStepData(ring, workAuthorizationSchemas.postcode, data)).toEqual(data);
  });
});
