import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Clock } from './clock';
import { EMULATOR_PREFIX, type Config } from './config';
import { EMULATOR_CREDENTIAL } from './emulator/emulator-credential';
import type { DeliveryCounters } from './delivery/delivery-metrics';
import { emulatorPlugin } from './emulator/emulator-plugin';
import type { AdjustableClock } from './emulator/emulator-options';
import { registerErrorHandling } from './http/error-handling';
import { AccessLogController } from './logger';
import { operationsRoutes } from './http/operations-routes';
import type { Store } from './store/store';
import type { RateLimitSettings } from './task-api/rate-limits';
import { taskRoutes, type TaskRoutesOptions } from './task-api/task-api';

export interface AppDependencies {
  config: Config;
  clock: Clock;
  store: Store;
  counters: DeliveryCounters;
  /** Wakes the outbox relay when a request wrote an update, so delivery starts without waiting for a poll. */
  onUpdateEnqueued: () => void;
  tokenRequests: () => number;
  /** In emulator mode, the emulator's own clock (it can be moved forward to expire tokens). */
  emulatorClock?: AdjustableClock;
  logger?: FastifyServerOptions['logger'];
  /** Overrides for the task API (tests turn rate limits off, point at another page build, fix the session secret). */
  taskOptions?: Partial<Pick<TaskRoutesOptions, 'rateLimits' | 'pageDirectory' | 'sessionSecret'>>;
}

/**
 * Builds the application and never listens (STYLE: fastify/demo), so tests build it side by side and `main.ts`
 * alone decides where it runs.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    // DESIGN: bodies are small JSON documents; anything bigger is refused with 413 before it is parsed.
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    logController: new AccessLogController(),
  });
  registerErrorHandling(app);

  await app.register(operationsRoutes, {
    store: deps.store,
    clock: deps.clock,
    counters: deps.counters,
    tokenRequests: deps.tokenRequests,
  });

  // The task page and its API (issue 4). The session secret is random per start when unset (emulator mode only:
  // config.ts requires SESSION_SECRET otherwise).
  await app.register(taskRoutes, {
    config: deps.config,
    clock: deps.clock,
    store: deps.store,
    sessionSecret: deps.config.sessionSecret,
    onUpdateEnqueued: deps.onUpdateEnqueued,
    rateLimits: rateLimitsOf(deps.config),
    ...deps.taskOptions,
  });

  if (deps.config.emulatorMode) {
    // DESIGN decision 6: mounted in-process but reached over real loopback HTTP, like the real platform.
    await app.register(emulatorPlugin, {
      prefix: EMULATOR_PREFIX,
      credentials: [{ ...EMULATOR_CREDENTIAL }],
      ...(deps.emulatorClock ? { clock: deps.emulatorClock } : {}),
    });
  }

  return app;
}

function rateLimitsOf(config: Config): RateLimitSettings | false {
  const { perAddress, perTask } = config.rateLimits;
  if (perAddress === 0 && perTask === 0) return false;
  // 0 for one of them: effectively unlimited, the other still applies.
  const unlimited = Number.MAX_SAFE_INTEGER;
  return { perAddress: perAddress || unlimited, perTask: perTask || unlimited, windowMs: 60_000 };
}
