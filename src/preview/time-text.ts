/**
 * One formatter for every time the preview shows: toLocaleTimeString builds a new one at each call, and the preview
 * formats every time of its panels at each refresh (every second). On the benchmark's phone
 * (docs/development.md#benchmarks) that work ran on the thread of the task page in its iframe, and held back its first
 * step.
 */
let clockFormat: Intl.DateTimeFormat | undefined;

/** Times in the preview: the clock time to read at a glance, the full ISO value for the title and `dateTime`. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  clockFormat ??= new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return clockFormat.format(date);
}

/** "in 3 s" / "now" for a time in the future, from `now`. */
export function untilText(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  return seconds <= 0 ? 'due now' : `in ${seconds} s`;
}
