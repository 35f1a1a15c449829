/** The offer of a task's step, from the partner's backend (migrations/0016-task-offers.ts). */
export interface TaskOffersTable {
  task_id: string;
  step_id: string;
  attempt: number;
  basis: string;
  /** JSON, as the step's offer schema parsed it. */
  offer: string;
  loaded_at: number;
}
