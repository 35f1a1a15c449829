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
}

export type UploadState = 'uploading' | 'completed';
