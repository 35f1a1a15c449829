/**
 * The most upstream calls one delivery can make (packages/server/src/upstream/workforce-client.ts): a token request, the update, and
 * after a 401 a second token request and the update again (docs/platform.md#token: a rejected token is renewed once).
 */
const WORST_CASE_CALLS = 4;

/** Slack for the database writes around the calls and a busy event loop. */
const LEASE_MARGIN_MS = 5_000;

/**
 * How long a claim holds a row: longer than the slowest delivery can take, so no other relay claims a row still being
 * sent (docs/decisions/003-per-task-order-with-leases.md), and short enough that rows leased by a killed process are free again soon after.
 */
export function deliveryLeaseMs(upstreamTimeoutMs: number, marginMs = LEASE_MARGIN_MS): number {
  return WORST_CASE_CALLS * upstreamTimeoutMs + marginMs;
}
