import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { taskError } from '../api-error';

/** Issue 4 item 8: the API is limited per client address and per assigned task. */
export interface RateLimitSettings {
  /** Requests per window from one address (a whole site behind one NAT shares it: keep it generous). */
  perAddress: number;
  /** Requests per window acting on one assigned task, whatever the address. */
  perTask: number;
  windowMs: number;
}

export const defaultRateLimits: RateLimitSettings = { perAddress: 600, perTask: 120, windowMs: 60_000 };

export type RateLimitCheck = (request: FastifyRequest, reply: FastifyReply, key: string) => Promise<void>;

/** Registers @fastify/rate-limit without global hooks and returns the two checks the routes call. */
export async function createRateLimits(app: FastifyInstance, settings: RateLimitSettings | false): Promise<{ perAddress: RateLimitCheck; perTask: RateLimitCheck }> {
  if (settings === false) {
    const allow: RateLimitCheck = async () => {};
    return { perAddress: allow, perTask: allow };
  }
  await app.register(rateLimit, { global: false });
  const limiter = (max: number): RateLimitCheck => {
    const keys = new WeakMap<FastifyRequest, string>();
    const check = app.createRateLimit({ max, timeWindow: settings.windowMs, keyGenerator: (request) => keys.get(request) ?? request.ip });
    return async (request, reply, key) => {
      keys.set(request, key);
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', String(result.ttlInSeconds));
        throw taskError('rate_limited', `Too many requests; try again in ${result.ttlInSeconds} seconds.`);
      }
    };
  };
  return { perAddress: limiter(settings.perAddress), perTask: limiter(settings.perTask) };
}
