import type { FileRule, FileType } from '@partner-task-kit/workflow';

/** The names a phone or a computer gives files of each type, for a file whose type the browser does not say. */
const extensions: Record<FileType, readonly string[]> = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/heic': ['.heic', '.heif'],
  'application/pdf': ['.pdf'],
};

/** Types a browser may report for a file of an accepted type: iPhones' photos are HEIC or HEIF, by the same decoder. */
const reportedAs: Record<FileType, readonly string[]> = {
  'image/jpeg': ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  'image/png': ['image/png'],
  'image/heic': ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'],
  'application/pdf': ['application/pdf'],
};

/** The file input's `accept`: the types and their names, so a picker whose files carry no type still offers them. */
export function acceptOf(rule: Pick<FileRule, 'types'>): string {
  return rule.types.flatMap((type) => [type, ...extensions[type]]).join(',');
}

/**
 * What the browser can tell before a byte is sent: a file over the field's size, or of a type the field does not take.
 * The server reads the type from the bytes when they have arrived (docs/api.md#uploads): a file the browser names no
 * type for (`''`, or a generic one) is left to it.
 */
export function fileProblem(file: { name: string; type: string; size: number }, rule: FileRule): 'size' | 'type' | undefined {
  if (file.size > rule.maxBytes) return 'size';
  const type = file.type.toLowerCase();
  const known = type !== '' && type !== 'application/octet-stream';
  const name = file.name.toLowerCase();
  const accepted = known
    ? rule.types.some((accepted) => reportedAs[accepted].includes(type))
    : rule.types.some((accepted) => extensions[accepted].some((extension) => name.endsWith(extension))) || !hasKnownExtension(name);
  return accepted ? undefined : 'type';
}

function hasKnownExtension(name: string): boolean {
  return Object.values(extensions).some((names) => names.some((extension) => name.endsWith(extension)));
}
