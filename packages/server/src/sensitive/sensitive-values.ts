/**
 * How a sensitive value (packages/workflow/src/sensitive.ts) is stored in a task's step data: sealed, with what may be shown
 * of it beside. Everything that shows or sends answers passes them through `maskSealed` (or `withoutSensitive`), so a
 * sealed value reaches no page, update, event, offer request or export in clear (docs/connecting-your-backend.md#sensitive-values).
 */
export interface SealedValue {
  /** A compact JWE (dir, A256GCM) whose header names the key (`kid`). */
  $sealed: string;
  /** Its last two characters behind dots: "••••89". */
  masked: string;
}

export function isSealed(value: unknown): value is SealedValue {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Partial<SealedValue>).$sealed === 'string' &&
    typeof (value as Partial<SealedValue>).masked === 'string'
  );
}

/** The value with every sealed value replaced by its masked form. */
export function maskSealed<T>(value: T): T {
  return mapSealed(value, (sealed) => sealed.masked) as T;
}

/** The answers without their sealed values: what may be sent to the partner's backend with an offer request. */
export function withoutSensitive(answers: Record<string, unknown>): Record<string, unknown> {
  return mapSealed(answers, () => undefined) as Record<string, unknown>;
}

/** Rebuilds `value` with each sealed value replaced by `replace`'s result; a field replaced by undefined is left out. */
export function mapSealed(value: unknown, replace: (sealed: SealedValue) => unknown): unknown {
  if (isSealed(value)) return replace(value);
  if (Array.isArray(value)) return value.map((item) => mapSealed(item, replace));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const mapped = mapSealed(item, replace);
      if (mapped !== undefined) out[key] = mapped;
    }
    return out;
  }
  return value;
}
