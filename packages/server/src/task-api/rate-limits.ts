import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rateLimited } from '../api-error.ts';
import type { Config } from '../config.ts';
import { deleteRateCountersBefore, incrementRateCounter } from '../store/rate-limit.repository.ts';
import type { Store } from '../store/store.ts';

/** The task API is limited per client address and per assigned task (RATE_LIMIT_PER_ADDRESS, RATE_LIMIT_PER_TASK). */
export interface RateLimitSettings {
  /** Requests per window from one address (a whole site behind one NAT shares it: keep it generous). */
  perAddress: number;
  /** Requests per window acting on one assigned task, whatever the address. */
  perTask: number;
  windowMs: number;
}

export type RateLimitCheck = (request: FastifyRequest, key: string) => Promise<void>;

/** The configured limits per minute; 0 turns one off, both 0 turn limiting off. */
export function rateLimitsOf(config: Config): RateLimitSettings | false {
  const { perAddress, perTask } = config.rateLimits;
  if (perAddress === 0 && perTask === 0) return false;
  const unlimited = Number.MAX_SAFE_INTEGER;
  return { perAddress: perAddress || unlimited, perTask: perTask || unlimited, windowMs: 60_000 };
}

/**
 * Registers @fastify/rate-limit without global hooks and returns the two checks the routes call. On Postgres the
 * counters live in the database, so the instances sharing it share the limits; SQLite serves one instance, in memory.
 */
export async function createRateLimits(
  app: FastifyInstance,
  settings: RateLimitSettings | false,
  store: Store,
): Promise<{ perAddress: RateLimitCheck; perTask: RateLimitCheck; limiter: (max: number) => RateLimitCheck }> {
  if (settings === false) {
    const allow: RateLimitCheck = async () => {};
    return { perAddress: allow, perTask: allow, limiter: () => allow };
  }
  await app.register(rateLimit, { global: false, ...(store.dialect === 'postgres' ? { store: databaseCounters(store) } : {}) });
  const limiter = (max: number): RateLimitCheck => {
    const keys = new WeakMap<FastifyRequest, string>();
    const check = app.createRateLimit({ max, timeWindow: settings.windowMs, keyGenerator: (request) => keys.get(request) ?? request.ip });
    return async (request, key) => {
      keys.set(request, key);
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        throw rateLimited(`Too many requests; try again in ${result.ttlInSeconds} seconds.`, result.ttlInSeconds * 1000);
      }
    };
  };
  // `limiter` serves the partner API, registered inside this plugin: @fastify/rate-limit is registered once per context.
  return { perAddress: limiter(settings.perAddress), perTask: limiter(settings.perTask), limiter };
}

/** Every this many counts, counters of windows long over are deleted (the table holds about one row per active key). */
const SWEEP_EVERY = 1_000;

/** @fastify/rate-limit's store interface over the database's counters (the library ships memory and Redis stores). */
function databaseCounters(store: Store): FastifyRateLimitStoreCtor {
  let counted = 0;
  class DatabaseCounters implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      const now = Date.now();
      if (++counted % SWEEP_EVERY === 0) void deleteRateCountersBefore(store.db, now - 2 * timeWindow).catch(() => {});
      incrementRateCounter(store.db, { key, windowMs: timeWindow, now }).then(
        ({ count, windowStart }) => callback(null, { current: count, ttl: Math.max(windowStart + timeWindow - now, 0) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return DatabaseCounters;
}
