import type { StoreDb } from '../store/database-schema.ts';
import { recordReveals } from '../store/sensitive-reveals.repository.ts';
import type { SensitiveKeyRing } from './sensitive-keys.ts';
import { mapSealed } from './sensitive-values.ts';
import { sealedValuesIn } from './step-data-sealing.ts';

/**
 * Who asks for sensitive values in clear (docs/connecting-your-backend.md#sensitive-values): a partner key with the
 * right, or an operator's export; the keys that open the values; and when.
 */
export interface SensitiveRevealer {
  /** Recorded with each reveal: the partner key's name, or `tasks export by <user>`. */
  by: string;
  keys: SensitiveKeyRing;
  now: number;
}

/**
 * A task's step data with its sealed values opened. Each reveal (who, task, field, time; never the value) is recorded
 * before the data is returned: no value is shown unrecorded.
 */
export async function revealSealed(
  db: StoreDb,
  revealer: SensitiveRevealer,
  task: { assignedTaskUuid: string; stepData: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  const sealed = sealedValuesIn(task.stepData);
  const clear = new Map<string, string>();
  for (const { sealed: value } of sealed) clear.set(value.$sealed, await revealer.keys.open(value));
  await recordReveals(
    db,
    sealed.map(({ path }) => ({
      keyName: revealer.by,
      assignedTaskUuid: task.assignedTaskUuid,
      field: path.join('.'),
      revealedAt: revealer.now,
    })),
  );
  return mapSealed(task.stepData, (value) => clear.get(value.$sealed)) as Record<string, unknown>;
}
