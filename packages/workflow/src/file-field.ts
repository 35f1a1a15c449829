import { z, type ZodMiniType } from 'zod/mini';
import { markSchema, schemaMark } from './schema-marks.ts';

/**
 * The types a file field may accept, as read from the file's bytes on the server (docs/api.md#uploads). A HEIC photo
 * (what iPhones take) is stored converted to JPEG, which every partner can open.
 */
export type FileType = 'image/jpeg' | 'image/png' | 'image/heic' | 'application/pdf';

/** The type a file of an accepted type is stored, described and served as. */
export type StoredFileType = Exclude<FileType, 'image/heic'>;

export function storedFileType(type: FileType): StoredFileType {
  return type === 'image/heic' ? 'image/jpeg' : type;
}

export interface FileRule {
  types: readonly FileType[];
  /** The largest file the field takes, in bytes (default 10 MB, docs/configuration.md#uploads). */
  maxBytes: number;
}

export const DEFAULT_FILE_MAX_BYTES = 10 * 1024 * 1024;

/** An upload id: the last segment of its tus Location, 128 random bits in base64url (22 characters) or more. */
export const UPLOAD_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * A step field whose value is the id of a completed upload: `photo: fileField({ types: ['image/jpeg'] })`.
 *
 * @public the workflow authoring API: a partner's own definitions use it.
 */
export function fileField(rule: { types: readonly FileType[]; maxBytes?: number }) {
  const schema = z.string().check(z.regex(UPLOAD_ID_PATTERN, 'must be the id of an upload'));
  // Kept on the schema (schema-marks.ts): the server finds it by walking the step's schema, and the page bundle carries
  // no registry.
  markSchema(schema, 'fileRule', { types: rule.types, maxBytes: rule.maxBytes ?? DEFAULT_FILE_MAX_BYTES });
  return schema;
}

/**
 * The file fields at the top of a step's schema object (optional ones included), by field name. A map without a
 * prototype: a name a client sends (`__proto__`, `constructor`, `toString`) finds only a field the schema declares.
 */
export function fileFieldsOf(schema: ZodMiniType): Record<string, FileRule> {
  const fields = Object.create(null) as Record<string, FileRule>;
  const def = defOf(schema);
  if (def.type !== 'object' || def.shape === undefined) return fields;
  for (const [name, field] of Object.entries(def.shape)) {
    const rule = ruleOf(field);
    if (rule) fields[name] = rule;
  }
  return fields;
}

function ruleOf(schema: ZodMiniType): FileRule | undefined {
  const found = schemaMark(schema, 'fileRule');
  if (found) return { types: found.types as readonly FileType[], maxBytes: found.maxBytes };
  const def = defOf(schema);
  if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) return ruleOf(def.innerType);
  return undefined;
}

function defOf(schema: ZodMiniType) {
  return (schema as unknown as { _zod: { def: { type: string; shape?: Record<string, ZodMiniType>; innerType?: ZodMiniType } } })._zod.def;
}
