import type { ReactNode } from 'react';

/**
 * Whether a hint or an error has something to show. A screen passes `error={tried && invalid ? text : undefined}`, so
 * `false`, `null` and `''` mean "no message" as `undefined` does.
 */
export function hasContent(node: ReactNode): boolean {
  return node !== undefined && node !== null && node !== false && node !== '';
}

/**
 * The `aria-describedby` of a control: the ids of what is shown beside it, in reading order, or nothing at all (an
 * empty attribute would point at no element, which axe reports).
 */
export function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(' ') || undefined;
}

/** The ids of a field's hint and error, derived from the control's id so that tests and screens can name them. */
export function fieldIds(id: string) {
  return { hint: `${id}-hint`, error: `${id}-error`, count: `${id}-count` };
}
