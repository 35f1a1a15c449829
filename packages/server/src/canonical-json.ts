/**
 * JSON with object keys sorted, so the same value written with its fields in another order gives the same text (and
 * hash). Recursive: its callers bound the nesting of what they pass (partner-schemas.ts, the step schemas). By hand,
 * not `canonicalize` (RFC 8785): the text never leaves this server, and the package's one version without recursion
 * needs Node 22 while it throws, as the others do, on the lone surrogates and 1e400 that JSON.parse lets through.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
