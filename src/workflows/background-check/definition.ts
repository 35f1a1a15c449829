import { z } from 'zod/mini';
import { defineStep, type WorkflowDefinition } from '@partner-task-kit/workflow';

/**
 * Background check: the worker consents, then the partner's own backend runs the check and reports its result
 * through the partner API (docs/connecting-your-backend.md), minutes or days later. The worker may close the page meanwhile.
 * Imported by the page and by the server, so nothing here may be secret.
 */
const WORKFLOW_ID = 'background-check';

export const consentDataSchema = z.strictObject({
  fullName: z
    .string()
    .check(z.trim(), z.minLength(2, 'must be the full name, 2 to 100 characters'), z.maxLength(100, 'must be at most 100 characters')),
  agree: z.literal(true, { error: 'must be true: the check needs the worker’s consent' }),
});

/** What the partner's backend sends when its check is done (POST /api/partner/v1/tasks/{id}/steps/check). */
export const checkResultSchema = z.strictObject({
  result: z.enum(['passed', 'failed'], { error: 'must be "passed" or "failed"' }),
  details: z.optional(z.string().check(z.maxLength(500, 'must be at most 500 characters'))),
});

/** The ids of the steps below: each has a screen and texts in this folder. */
export type BackgroundCheckStepId = 'consent' | 'check';

export const backgroundCheckWorkflow: WorkflowDefinition<typeof WORKFLOW_ID> = {
  id: WORKFLOW_ID,
  title: 'Background check',
  estimatedMinutes: 2,
  steps: [
    defineStep({
      id: 'consent',
      shortName: 'Consent',
      schema: consentDataSchema,
      // English, for the admin's task panel. The name stays with the partner: the panel says only that consent was given.
      report: () => ({ color: 'success', details: 'The worker consented to the background check.' }),
    }),
    defineStep({
      id: 'check',
      shortName: 'Check',
      schema: checkResultSchema,
      completedBy: 'partner',
      awaiting: { color: 'warning', details: 'the background check is under way at the partner.' },
      previewResults: [
        { label: 'Passed', data: { result: 'passed' } },
        {
          label: 'Failed',
          data: { result: 'failed', details: 'The identity document could not be verified.' },
          // For the worker, apart from the details for the platform's admins (docs/connecting-your-backend.md).
          workerMessage: {
            en: 'We could not confirm your identity.',
            es: 'No pudimos confirmar tu identidad.',
          },
        },
      ],
      report: (data) => {
        const details = data.details === undefined ? '' : ` ${data.details}`;
        return data.result === 'passed'
          ? { color: 'success', details: `The background check passed.${details}` }
          : { color: 'danger', details: `The background check did not pass.${details}`, failed: true };
      },
    }),
  ],
};

// What the kit finds in this folder (docs/architecture.md#a-workflow-is-a-folder).
export default backgroundCheckWorkflow;
