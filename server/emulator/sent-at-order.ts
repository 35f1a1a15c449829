/**
 * An exact instant of an ISO 8601 date-time: whole seconds since the epoch plus the fractional digits as a string, so
 * two sentAt values are compared without losing sub-millisecond digits (spec 2.6 does not limit the precision).
 */
export interface SentAtInstant {
  epochSeconds: number;
  fraction: string;
}

const fractionPattern = /\.(\d+)/;

export function sentAtInstant(sentAt: string): SentAtInstant {
  const match = fractionPattern.exec(sentAt);
  const fraction = (match?.[1] ?? '').replace(/0+$/, '');
  const withoutFraction = match === null ? sentAt : sentAt.replace(fractionPattern, '');
  return { epochSeconds: Math.floor(Date.parse(withoutFraction) / 1000), fraction };
}

/** Negative when a is older than b, zero when they are the same instant, positive when a is newer. */
export function compareSentAt(a: SentAtInstant, b: SentAtInstant): number {
  if (a.epochSeconds !== b.epochSeconds) return a.epochSeconds - b.epochSeconds;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, '0');
  const fb = b.fraction.padEnd(width, '0');
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}
