import type { FastifyInstance } from 'fastify';
import { EMULATOR_PREFIX, type Config } from '../config.ts';
import type { PreviewConfig } from '@partner-task-kit/workflow/contract';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import type { RateLimitCheck } from './rate-limits.ts';

/**
 * The preview portal's one route of its own. Registered only when the preview is enabled: otherwise
 * `/api/preview` and `/preview` answer 404, so a production server does not advertise a tool that creates tasks.
 */
export function registerPreviewRoutes(
  app: FastifyInstance,
  deps: { config: Config; workflows: WorkflowCatalog; perAddress: RateLimitCheck },
): void {
  const { config, workflows, perAddress } = deps;
  app.get('/api/preview', async (request): Promise<PreviewConfig> => {
    await perAddress(request, request.ip);
    return {
      mode: config.emulatorMode ? 'emulator' : 'platform',
      endEvent: config.endEvent,
      // docs/decisions/006-emulator-mode-is-the-default.md: with a real credential the emulator is not mounted, and the preview must not pretend it is.
      emulatorControlPath: config.emulatorMode ? `${EMULATOR_PREFIX}/control` : null,
      workflows: workflows.list().map((workflow) => ({
        id: workflow.id,
        title: workflow.title,
        steps: workflow.steps.length,
        estimatedMinutes: workflow.estimatedMinutes,
      })),
      defaultWorkflow: workflows.defaultId,
      companies: config.tenancy.mode === 'single' && config.tenancy.companies ? [...config.tenancy.companies] : null,
    };
  });
}
