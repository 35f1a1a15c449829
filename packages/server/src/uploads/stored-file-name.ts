import type { StoredFileType } from '@partner-task-kit/workflow';

const EXTENSIONS: Record<StoredFileType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };

/**
 * The name a stored file goes out under (a download, an export): its id and the extension of its type as read from
 * its bytes, never a name the worker gave.
 */
export function storedFileName(id: string, contentType: string | null): string {
  const extension = contentType !== null && Object.hasOwn(EXTENSIONS, contentType) ? EXTENSIONS[contentType as StoredFileType] : 'bin';
  return `${id}.${extension}`;
}
