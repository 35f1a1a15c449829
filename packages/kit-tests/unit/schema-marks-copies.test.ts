import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import type * as fileFieldModule from '@partner-task-kit/workflow/file-field';
import type * as sensitiveModule from '@partner-task-kit/workflow/sensitive';

/*
 * Two copies of @partner-task-kit/workflow in one app (a partial upgrade; a duplicate nested under another package) are
 * two module instances: here, the same files imported under two queries, which the module loader keeps apart as it
 * keeps apart two installed copies. A mark one copy makes must be read by the other, or a sensitive answer would be
 * stored and sent in clear, and a file field would lose its rule.
 */
type SensitiveModule = typeof sensitiveModule;
type FileFieldModule = typeof fileFieldModule;
/** One more instance of a module of the workflow package's sources: the query makes it a module of its own. */
const copyOf = <Module>(file: string, copy: string) =>
  import(/* @vite-ignore */ `../../workflow/src/${file}?copy=${copy}`) as Promise<Module>;
const first = {
  sensitive: await copyOf<SensitiveModule>('sensitive.ts', 'first'),
  fileField: await copyOf<FileFieldModule>('file-field.ts', 'first'),
};
const second = {
  sensitive: await copyOf<SensitiveModule>('sensitive.ts', 'second'),
  fileField: await copyOf<FileFieldModule>('file-field.ts', 'second'),
};

describe('marks on a step schema, across two copies of the workflow package', () => {
  it('are two module instances (or this test proves nothing)', () => {
    expect(first.sensitive).not.toBe(second.sensitive);
    expect(first.fileField.fileField).not.toBe(second.fileField.fileField);
  });

  it('finds a sensitive field marked by the other copy', () => {
    const schema = z.object({ name: z.string(), accountNumber: first.sensitive.sensitive(z.string()) });
    expect(second.sensitive.sensitivePaths(schema)).toEqual([['accountNumber']]);
    expect(first.sensitive.sensitivePaths(schema)).toEqual([['accountNumber']]);
  });

  it("finds a file field's rule set by the other copy", () => {
    const schema = z.object({ cheque: z.optional(first.fileField.fileField({ types: ['image/jpeg'], maxBytes: 1000 })) });
    expect({ ...second.fileField.fileFieldsOf(schema) }).toEqual({ cheque: { types: ['image/jpeg'], maxBytes: 1000 } });
  });

  it('leaves a schema object its own keys', () => {
    const marked = first.sensitive.sensitive(z.string());
    expect(Object.keys(marked)).toEqual(Object.keys(z.string()));
  });
});
