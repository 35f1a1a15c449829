/**
 * Times in the preview: the clock time to read at a glance (24-hour, local), the full ISO value for the title and
 * `dateTime`. Built from the date's fields, not with Intl.DateTimeFormat: the first formatter a page builds loads the
 * locale's data, which packages/kit-tests/bench/page.ts traced at 166 ms of the phone's main thread (docs/development.md#benchmarks),
 * run as the preview showed its first delivery, while the task page in its iframe, on the same thread, was loading.
 */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((field) => String(field).padStart(2, '0')).join(':');
}

/** "in 3 s" / "now" for a time in the future, from `now`. */
export function untilText(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  return seconds <= 0 ? 'due now' : `in ${seconds} s`;
}
