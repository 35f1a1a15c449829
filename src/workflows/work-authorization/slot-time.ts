import type { Locale } from '@partner-task-kit/page/screens';

/** A slot as the page shows its time: its start, with its offset, and the place's time zone when the backend gave it. */
interface SlotStart {
  startsAt: string;
  timeZone?: string | undefined;
}

const parts = {
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
} as const;

/**
 * When a slot starts, in the worker's language and at the place, its zone named as `Intl` names it there: "Monday,
 * January 7, 2030 at 9:00 AM GMT+1", "lunes, 7 de enero de 2030, 9:00 CET". The place's zone first, else the zone of
 * the start's own offset, else the device's (still named, so the worker knows which it is).
 */
export function slotTime(slot: SlotStart, locale: Locale): string {
  const at = new Date(slot.startsAt);
  for (const timeZone of [slot.timeZone, zoneOfOffset(slot.startsAt)]) {
    if (timeZone === undefined) continue;
    try {
      return new Intl.DateTimeFormat(locale, { ...parts, timeZone }).format(at);
    } catch {
      // A zone this browser does not know: the next one.
    }
  }
  return new Intl.DateTimeFormat(locale, parts).format(at);
}

/**
 * The IANA zone of a start's offset: `Z` is UTC, a whole hour `Etc/GMT-1` for +01:00 (those names invert the sign);
 * none for other offsets. Written here because `Intl` takes a bare offset as a time zone only in the newest browsers.
 */
function zoneOfOffset(startsAt: string): string | undefined {
  if (/z$/i.test(startsAt)) return 'UTC';
  const match = /([+-])(\d{2}):?(\d{2})$/.exec(startsAt);
  if (!match || match[3] !== '00') return undefined;
  const hours = Number(match[2]);
  return hours === 0 ? 'UTC' : `Etc/GMT${match[1] === '+' ? '-' : '+'}${hours}`;
}
