import { describe, expect, it } from 'vitest';
import { CredentialStore } from '@partner-task-kit/dev/emulator/credential-store';
import { TokenStore } from '@partner-task-kit/dev/emulator/token-store';

const company = '3f0c9a1e-5b2d-4e8f-9a6c-1d7e2b4f8a0c';

describe('CredentialStore', () => {
  it('accepts a Key only with its own Secret, and keeps the first credential of a Key', () => {
    const store = new CredentialStore([{ key: 'k1', secret: 's1', companyUuid: company.toUpperCase() }]);
    expect(store.authenticate('k1', 's1')).toEqual({ key: 'k1', secret: 's1', companyUuid: company });
    expect(store.authenticate('k1', 's2')).toBeUndefined();
    expect(store.add({ key: 'k1', secret: 's2' })).toBeUndefined();
    expect(store.authenticate('k1', 's2')).toBeUndefined();
    expect(store.add({ key: 'k2', secret: 's2' })).toEqual({ key: 'k2', companyUuid: null });
    expect(store.list()).toEqual([
      { key: 'k1', companyUuid: company },
      { key: 'k2', companyUuid: null },
    ]);
    expect(store.revoke('k1')).toBe(true);
    expect(store.revoke('k1')).toBe(false);
    expect(store.authenticate('k1', 's1')).toBeUndefined();
  });
});

describe('TokenStore', () => {
  it('remembers the Key and company of each token, and revokes only the tokens of one Key', () => {
    const clock = { now: () => 0 };
    const tokens = new TokenStore(clock, 60);
    const first = tokens.issue({ key: 'k1', companyUuid: company });
    const second = tokens.issue({ key: 'k1', companyUuid: company });
    const other = tokens.issue({ key: 'k2' });
    expect(tokens.find(first.token)).toMatchObject({ key: 'k1', companyUuid: company, revoked: false });
    expect(other.companyUuid).toBeUndefined();
    expect(tokens.revokeKey('k1')).toBe(2);
    expect(tokens.revokeKey('k1')).toBe(0);
    expect([tokens.check(first.token), tokens.check(second.token), tokens.check(other.token)]).toEqual(['revoked', 'revoked', 'valid']);
  });
});
