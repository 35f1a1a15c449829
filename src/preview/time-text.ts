/** Times in the preview: the clock time to read at a glance, the full ISO value for the title and `dateTime`. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** "in 3 s" / "now" for a time in the future, from `now`. */
export function untilText(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  return seconds <= 0 ? 'due now' : `in ${seconds} s`;
}
