import { describe, expect, it } from 'vitest';
import { resolveFutureFlags } from '@partner-task-kit/server/future-flags';

/** A version's table of flags as a minor version would write it (future-flags.ts has none today). */
const someVersionsFlags = { quieterRetries: false, strictUploads: false };

describe('future flags (docs/upgrading.md#future-flags)', () => {
  it('are all off when the app turns none on', () => {
    expect(resolveFutureFlags(undefined, someVersionsFlags)).toEqual({ quieterRetries: false, strictUploads: false });
    expect(resolveFutureFlags({}, someVersionsFlags)).toEqual({ quieterRetries: false, strictUploads: false });
  });

  it('are on where the app turns them on, and the others stay off', () => {
    expect(resolveFutureFlags({ strictUploads: true }, someVersionsFlags)).toEqual({ quieterRetries: false, strictUploads: true });
  });

  it('refuse a name the version does not know, a misspelling or one a major version removed, naming the known ones', () => {
    expect(() => resolveFutureFlags({ strictUpload: true }, someVersionsFlags)).toThrow(
      `runKit's \`future\`: "strictUpload" is not a future flag of this version (its flags: quieterRetries, strictUploads). ` +
        'A flag is removed by the major version that turns its behaviour on for every app: delete it from `future` then. ' +
        'See docs/upgrading.md#future-flags.',
    );
  });

  it('refuse a value that is not true or false, which JavaScript callers could pass', () => {
    expect(() => resolveFutureFlags({ strictUploads: 'yes' }, someVersionsFlags)).toThrow(
      `"strictUploads" must be true or false, not "yes"`,
    );
    expect(() => resolveFutureFlags(['strictUploads'], someVersionsFlags)).toThrow("runKit's `future` must be an object of flags");
  });

  it('in this version: there are none, so any name is refused and none is off by default', () => {
    expect(resolveFutureFlags(undefined)).toEqual({});
    expect(() => resolveFutureFlags({ anything: true })).toThrow('"anything" is not a future flag of this version (it has none)');
  });
});
