import type { FastifyPluginAsync } from 'fastify';
import type { EmulatorMode, EmulatorModeMount, EmulatorModeOptions } from '@partner-task-kit/server';
import { emulatorPlugin } from './emulator/emulator-plugin.ts';
import { OfferStandIn } from './partner-backend/offer-stand-in.ts';
import { partnerBackendRoutes } from './partner-backend/partner-backend-routes.ts';
import { PartnerBackendReceiver } from './partner-backend/receiver.ts';

/**
 * Emulator mode for one start of the server (docs/decisions/006-emulator-mode-is-the-default.md): the emulator of the
 * platform, mounted in the server's process but reached over real loopback HTTP as the platform is, and the stand-in of
 * the partner's backend, its receiver of events and its answers to offers, each signed with a secret made for this start.
 */
export function emulatorMode(options: EmulatorModeOptions): EmulatorMode {
  const receiver = options.receiveEvents ? new PartnerBackendReceiver() : undefined;
  const offerStandIn = options.answerOffers ? new OfferStandIn(options.workflows) : undefined;
  const plugin: FastifyPluginAsync<EmulatorModeMount> = async (app, mount) => {
    await app.register(emulatorPlugin, {
      credentials: mount.credentials.map((credential) => ({ ...credential })),
      // As the platform does: only tasks assigned (the preview's launch, or the control API) can be updated.
      unknownTasks: 'reject',
      // The control API has no authentication: it is the preview's, and goes with it (docs/configuration.md#the-page-and-the-portal).
      control: mount.control,
      // npm run dev: the assigned tasks outlive a restart made by a code change, as the platform's would.
      ...(mount.stateFile === undefined ? {} : { stateFile: mount.stateFile }),
    });
    await app.register(partnerBackendRoutes, {
      ...{ host: mount.host, selfUrl: mount.selfUrl, offerTimeoutMs: mount.offerTimeoutMs, control: mount.control },
      ...{ receiver, offerStandIn },
    });
  };
  return { eventsSecret: receiver?.secret, offersSecret: offerStandIn?.secret, plugin };
}
