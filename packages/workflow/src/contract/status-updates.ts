import { type PartnerStatusColor, labelLength, PARTNER_LABEL_MAX } from './partner-task-update.ts';
import type { TaskStatus } from './task-status.ts';

/**
 * The moments a task reports to the platform (docs/platform.md#partner-task-update-record), the status each sends (docs/platform.md#statuses-and-transitions) and how its label reads. The
 * server builds every update from this table; the preview and partner tooling read the same names.
 */
export const updateKinds = {
  /** The worker opened the task: `ready` (docs/platform.md#statuses-and-transitions, the task exists on our side). */
  opened: { taskStatus: 'ready', color: 'neutral' },
  /** The attempt's first interaction (docs/platform.md#statuses-and-transitions: ready -> inProgress). */
  started: { taskStatus: 'inProgress', color: 'neutral' },
  /** A step was saved; its colour is the step's own report. */
  stepSaved: { taskStatus: 'inProgress', color: undefined },
  /** A graded step failed with tries left. */
  retry: { taskStatus: 'inProgress', color: 'warning' },
  /** Out of tries: docs/platform.md#statuses-and-transitions `error`, irrevocable until restarted. */
  failed: { taskStatus: 'error', color: 'danger' },
  completed: { taskStatus: 'completed', color: 'success' },
  /** A new attempt: `ready` clears an earlier review on the platform (docs/platform.md#statuses-and-transitions and docs/platform.md#the-update-endpoint). */
  restarted: { taskStatus: 'ready', color: 'neutral' },
} as const satisfies Record<string, { taskStatus: TaskStatus; color: PartnerStatusColor | undefined }>;

export type UpdateKind = keyof typeof updateKinds;

/** Where the worker is: the step's 1-based position and its short name. */
export interface UpdateStepPosition {
  index: number;
  count: number;
  name: string;
}

const onStep = ({ index, count }: UpdateStepPosition) => `Step ${index + 1} of ${count}`;

/** Each kind's label, composed by `fitLabel` so no label can exceed 32 characters (docs/platform.md#limits), whatever a step is named. */
export const updateLabels = {
  opened: () => 'Opened',
  started: (step: UpdateStepPosition) => fitLabel(onStep(step), step.name),
  stepSaved: (next: UpdateStepPosition) => fitLabel(onStep(next), next.name),
  retry: (step: UpdateStepPosition) => fitLabel(onStep(step), `${step.name} retry`),
  failed: (stepName: string) => fitLabel('Failed', stepName),
  completed: () => 'Completed',
  restarted: (attempt: number) => fitLabel('Restarted', `attempt ${attempt}`),
} as const satisfies Record<UpdateKind, (...args: never[]) => string>;

const SEPARATOR = ' · ';

/**
 * docs/platform.md#limits: partnerStatus.label is at most 32 characters. The variable part is cut to whatever room the fixed part
 * leaves, with an ellipsis.
 */
export function fitLabel(prefix: string, name: string): string {
  // Cut by code points, so a surrogate pair (an emoji, a rare letter) is never split into half a character.
  const prefixChars = Array.from(prefix);
  const room = PARTNER_LABEL_MAX - prefixChars.length - labelLength(SEPARATOR);
  if (room <= 0) return prefixChars.slice(0, PARTNER_LABEL_MAX).join('');
  const chars = Array.from(name.trim());
  if (chars.length === 0) return prefix;
  const fitted =
    chars.length <= room
      ? chars.join('')
      : `${chars
          .slice(0, room - 1)
          .join('')
          .trimEnd()}…`;
  return `${prefix}${SEPARATOR}${fitted}`;
}
