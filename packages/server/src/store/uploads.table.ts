/** A tus upload of a task's attempt (migrations/0018-uploads.ts). */
export interface UploadsTable {
  id: string;
  task_id: string;
  attempt: number;
  step_id: string;
  field: string;
  /** Upload-Length, as the client declared it when creating the upload. */
  declared_bytes: number;
  state: UploadState;
  /** Read from the bytes once complete (file-type), never the client's claim. */
  content_type: string | null;
  /** Of the cleaned file. */
  bytes: number | null;
  sha256: string | null;
  created_at: number;
  completed_at: number | null;
  /** When a saved step first named it (migrations/0019-upload-removals.ts); null: never, removed a day after creation. */
  saved_at: number | null;
}

/** `removing`: its bytes are being removed, then the row (docs/operations.md#files); nothing reads or names it any more. */
export type UploadState = 'uploading' | 'completed' | 'removing';
