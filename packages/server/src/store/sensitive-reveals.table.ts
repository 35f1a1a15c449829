/** One sensitive value shown in clear by the partner API (migrations/0017-sensitive-reveals.ts): never the value. */
export interface SensitiveRevealsTable {
  id: string;
  /** The partner key's name, as `npm run partner-keys -- list` shows it. */
  key_name: string;
  assigned_task_uuid: string;
  /** The field's path in the task's step data, dot separated: `identity.idNumber`. */
  field: string;
  revealed_at: number;
}
