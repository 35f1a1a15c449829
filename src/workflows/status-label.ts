import { PARTNER_LABEL_MAX } from '../contract/partner-task-update';

const SEPARATOR = ' · ';

/**
 * spec 8: partnerStatus.label is at most 32 characters. Labels are composed, so the variable part is cut to whatever
 * room the fixed part leaves: no label can exceed the limit whatever a workflow names its steps.
 */
export function fitLabel(prefix: string, name: string): string {
  const room = PARTNER_LABEL_MAX - prefix.length - SEPARATOR.length;
  if (room <= 0) return prefix.slice(0, PARTNER_LABEL_MAX);
  const trimmed = name.trim();
  if (trimmed === '') return prefix;
  const fitted = trimmed.length <= room ? trimmed : `${trimmed.slice(0, room - 1).trimEnd()}…`;
  return `${prefix}${SEPARATOR}${fitted}`;
}

/** "Step 2 of 4 · Policy": where the worker now is (1-based). */
export function stepLabel(stepIndex: number, stepCount: number, shortName: string): string {
  return fitLabel(`Step ${stepIndex + 1} of ${stepCount}`, shortName);
}
