import { clockTime } from './time-text.ts';

/** A time as a `<time>` element: short to read, exact on hover and for assistive technology. */
export function TimeStamp({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={iso}>
      {clockTime(iso)}
    </time>
  );
}
