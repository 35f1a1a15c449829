import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { fileField, fileFieldsOf } from '@partner-task-kit/workflow/file-field';

describe('the file fields of a step', () => {
  const schema = z.object({
    front: fileField({ types: ['image/jpeg'] }),
    back: z.optional(fileField({ types: ['image/png'], maxBytes: 5000 })),
    note: z.string(),
  });

  it('names each file field of the schema, optional ones included, with its rule', () => {
    expect(Object.entries(fileFieldsOf(schema))).toEqual([
      ['front', { types: ['image/jpeg'], maxBytes: 10 * 1024 * 1024 }],
      ['back', { types: ['image/png'], maxBytes: 5000 }],
    ]);
  });

  it('finds nothing under a name every object inherits: a client names the field (docs/api.md#uploads)', () => {
    const fields = fileFieldsOf(schema);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect([name, fields[name]]).toEqual([name, undefined]);
    }
    expect(fileFieldsOf(z.string()).toString).toBeUndefined();
  });
});
