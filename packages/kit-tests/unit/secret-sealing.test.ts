import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from '@partner-task-kit/server/tenants/secret-sealing';

const key = randomBytes(32);
const owner = { companyUuid: '3f0c9a1e-5b2d-4e8f-9a6c-1d7e2b4f8a0c', apiKey: 'key-1' };

describe('sealing a tenant Secret (AES-256-GCM)', () => {
  it('opens with the key and owner it was sealed for, and never shows the Secret', () => {
    const sealed = sealSecret('the-secret-value', key, owner);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('the-secret-value');
    expect(Buffer.from(sealed.slice(3), 'base64').toString('latin1')).not.toContain('the-secret-value');
    expect(openSecret(sealed, key, owner)).toBe('the-secret-value');
  });

  it('seals the same Secret differently each time (a fresh nonce)', () => {
    expect(sealSecret('same', key, owner)).not.toBe(sealSecret('same', key, owner));
  });

  it('refuses another key, another owner (a row copied onto another tenant) and an altered value', () => {
    const sealed = sealSecret('the-secret-value', key, owner);
    expect(() => openSecret(sealed, randomBytes(32), owner)).toThrow();
    expect(() => openSecret(sealed, key, { ...owner, companyUuid: '9d2e4f6a-8b0c-4d1e-a3f5-7b9c1d3e5f70' })).toThrow();
    expect(() => openSecret(sealed, key, { ...owner, apiKey: 'key-2' })).toThrow();
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    bytes[bytes.length - 1]! ^= 1;
    expect(() => openSecret(`v1.${bytes.toString('base64')}`, key, owner)).toThrow();
  });

  it("never opens a company's webhook secret as its API Secret, nor the other way round", () => {
    const webhookOwner = { companyUuid: owner.companyUuid, partnerWebhook: true as const };
    const webhookSealed = sealSecret('whsec_value', key, webhookOwner);
    expect(openSecret(webhookSealed, key, webhookOwner)).toBe('whsec_value');
    expect(() => openSecret(webhookSealed, key, owner)).toThrow();
    expect(() => openSecret(sealSecret('the-secret-value', key, owner), key, webhookOwner)).toThrow();
  });
});
