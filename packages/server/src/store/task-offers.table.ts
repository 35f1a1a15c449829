/** The offer of a task's step, from the partner's backend (migrations/0016-task-offers.ts). */
export interface TaskOffersTable {
  task_id: string;
  step_id: string;
  attempt: number;
  basis: string;
  /** JSON, as the step's offer schema parsed it. */
  offer: string;
  loaded_at: number;
  /** When the partner's backend was last asked for it, answered or not (migrations/0021-offer-checks.ts); null: at `loaded_at`. */
  checked_at: number | null;
}
