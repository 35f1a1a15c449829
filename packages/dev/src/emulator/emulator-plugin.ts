import type { FastifyPluginAsync } from 'fastify';
import { registerControlRoutes } from './control-api.ts';
import { installErrorHandling } from './emulator-errors.ts';
import type { EmulatorOptions } from './emulator-options.ts';
import { EmulatorState } from './emulator-state.ts';
import { registerPartnerTaskRoute, registerTokenRoute, registerWorkersRoute } from './platform-routes.ts';
import { UpstreamRecorder } from './upstream-hooks.ts';

export interface EmulatorPluginOptions extends EmulatorOptions {
  /**
   * An existing state to serve, so the caller keeps an in-process handle on it (the preview, tests). When given, the
   * other options are not read: they were the state's to take when it was made.
   */
  state?: EmulatorState;
  /**
   * Default true. False leaves the control API out: it has no authentication (anyone who reaches it lists every task
   * and changes any), so a server mounts it only with its preview (docs/configuration.md#the-page-and-the-portal).
   */
  control?: boolean;
}

/**
 * The emulator as a Fastify plugin: the three upstream endpoints of docs/platform.md#addresses at its root and, unless
 * `control` is false, the control API under /control. It is deliberately encapsulated (not wrapped with
 * fastify-plugin): its body parsers, hooks and error handler stay inside, so it can be mounted under a prefix (e.g.
 * /emulator) in an app that has its own.
 */
export const emulatorPlugin: FastifyPluginAsync<EmulatorPluginOptions> = async (app, options) => {
  const ownState = options.state === undefined;
  const state = options.state ?? new EmulatorState(options);
  if (ownState) app.addHook('onClose', async () => state.close());
  installErrorHandling(app);
  if (state.persistent) {
    // Every change (an update applied, an assignment, an admin action, a setting) is made by a request that is not a
    // read; saving before its answer leaves means nothing answered is lost when the server restarts.
    app.addHook('onSend', async (request, _reply, payload) => {
      if (request.method === 'GET' || request.method === 'HEAD') return payload;
      try {
        state.save();
      } catch (error) {
        request.log.warn({ err: error }, 'could not save the emulator state; a restart will forget the latest changes');
      }
      return payload;
    });
  }

  await app.register(
    async (upstream) => {
      // The handlers check Content-Type and parse JSON themselves, so every refusal (415, malformed JSON) has the
      // emulator's own code and message; all bodies arrive as text.
      upstream.removeAllContentTypeParsers();
      upstream.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      const recorder = new UpstreamRecorder(state);
      registerTokenRoute(upstream, state, recorder);
      registerWorkersRoute(upstream, state, recorder);
      registerPartnerTaskRoute(upstream, state, recorder);
    },
    // A benchmark pushes thousands of updates a second: no per-request log lines, only warnings and errors.
    { logLevel: 'warn' },
  );

  if (options.control === false) return;
  // The preview portal polls the control API: its reads write no line (at any level: the host app may log
  // without this server's access-log controller); its actions (assign, approve, a fault) are logged like any request.
  await app.register(
    async (control) => {
      control.addHook('onRoute', (route) => {
        if (route.method === 'GET' || route.method === 'HEAD') route.logLevel = 'warn';
      });
      registerControlRoutes(control, state);
    },
    { prefix: '/control' },
  );
};
