import { z } from 'zod/mini';
import { fileField, type FileRule, sensitive, stepsOf, type WorkflowDefinition } from '@partner-task-kit/workflow';

/**
 * Work authorization: citizens give a national ID, others a document and its expiry date; both then a photo of the
 * document's front and back, a postcode, an appointment among the slots the partner's backend offers for it, and the
 * partner's verification. It teaches the engine's branches, "Back", answers checked against earlier ones (or today),
 * offers, sensitive values and files (src/workflows/README.md). Imported by the page and by the server, so nothing here
 * may be secret.
 */
const WORKFLOW_ID = 'work-authorization';

export const documentTypes = ['passport', 'residence-permit', 'work-visa'] as const;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** A photo of one side of the document: what phones take (an iPhone's HEIC is kept as a JPEG), at most 10 MB. */
export const documentPhotoRule: FileRule = { types: ['image/jpeg', 'image/png', 'image/heic'], maxBytes: 10 * 1024 * 1024 };

export const workAuthorizationSchemas = {
  citizenship: z.strictObject({ citizen: z.boolean({ error: 'choose yes or no' }) }),
  'national-id': z.strictObject({
    nationalId: sensitive(z.string().check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z0-9]{6,12}$/, 'must be 6 to 12 letters or digits'))),
  }),
  document: z.strictObject({
    documentType: z.enum(documentTypes, { error: 'choose a document type' }),
    expiryDate: z.string().check(
      z.regex(isoDate, 'must be a date, YYYY-MM-DD'),
      z.refine(
        (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
        {
          error: 'must be a real date',
        },
      ),
    ),
  }),
  photos: z.strictObject({ front: fileField(documentPhotoRule), back: fileField(documentPhotoRule) }),
  postcode: z.strictObject({
    postcode: z.string().check(z.trim(), z.regex(/^[A-Za-z0-9 -]{3,10}$/, 'must be 3 to 10 letters, digits, spaces or hyphens')),
  }),
  appointment: z.strictObject({ slotId: z.string().check(z.minLength(1, 'choose a slot'), z.maxLength(100)) }),
  verification: z.strictObject({
    result: z.enum(['passed', 'failed'], { error: 'must be "passed" or "failed"' }),
    details: z.optional(z.string().check(z.maxLength(500, 'must be at most 500 characters'))),
  }),
};

/** A time zone of the IANA database that this runtime knows, such as "Europe/Madrid". */
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The partner's backend answers an offer request for the appointment step with this (docs/connecting-your-backend.md#offers):
 * each slot's start with its offset, and the place's time zone, in which the page shows it ("9:00 AM GMT+1"); without
 * one, the time is shown at the start's own offset.
 */
export const slotsOfferSchema = z.strictObject({
  slots: z
    .array(
      z.strictObject({
        id: z.string().check(z.minLength(1), z.maxLength(100)),
        startsAt: z.iso.datetime({ offset: true }),
        timeZone: z.optional(z.string().check(z.maxLength(64), z.refine(isTimeZone, 'must be an IANA time zone such as "Europe/Madrid"'))),
        place: z.string().check(z.minLength(1), z.maxLength(200)),
      }),
    )
    .check(z.maxLength(50)),
});
export type SlotsOffer = z.infer<typeof slotsOfferSchema>;

export type WorkAuthorizationStepId = keyof typeof workAuthorizationSchemas;

const step = stepsOf(workAuthorizationSchemas);

export const workAuthorization: WorkflowDefinition<typeof WORKFLOW_ID> = {
  id: WORKFLOW_ID,
  title: 'Work authorization',
  estimatedMinutes: 5,
  steps: [
    step('citizenship', {
      shortName: 'Citizenship',
      next: { 'national-id': (answers) => answers.citizenship?.citizen === true, document: () => true },
      report: (data) => ({ color: 'neutral', details: data.citizen ? 'The worker is a citizen.' : 'The worker is not a citizen.' }),
    }),
    step('national-id', {
      shortName: 'National ID',
      next: 'photos',
      // The value is masked before it reaches a report: it never goes to the platform.
      report: () => ({ color: 'neutral', details: 'The worker gave their national ID number.' }),
    }),
    step('document', {
      shortName: 'Document',
      check: (data, { today }) => (data.expiryDate > today ? undefined : { path: ['expiryDate'], message: 'must be after today' }),
      report: (data) => ({
        color: 'neutral',
        details: `The worker gave a ${data.documentType.replace('-', ' ')} valid until ${data.expiryDate}.`,
      }),
    }),
    step('photos', {
      shortName: 'Photos',
      report: () => ({ color: 'neutral', details: 'The worker sent photos of the front and back of their document.' }),
    }),
    step('postcode', {
      shortName: 'Postcode',
      report: () => ({ color: 'neutral', details: 'The worker gave their postcode.' }),
    }),
    step<'appointment', SlotsOffer>('appointment', {
      shortName: 'Appointment',
      offer: {
        schema: slotsOfferSchema,
        dependsOn: ['postcode'],
        check: (data, offer) =>
          offer.slots.some((slot) => slot.id === data.slotId)
            ? undefined
            : { path: ['slotId'], message: 'must be one of the slots offered' },
        isEmpty: (offer) => offer.slots.length === 0,
        // No slot near the postcode: the page's "Check again", and a reload, ask the backend again after this.
        checkAgainAfterMs: 30_000,
        empty: { slots: [] },
        sample: (answers, { locale }) => {
          const spanish = locale?.toLowerCase().startsWith('es') === true;
          const centre = spanish ? 'Centro de verificación' : 'Verification centre';
          const place = `${centre}, ${answers.postcode?.postcode ?? (spanish ? 'tu zona' : 'your area')}`;
          // A centre in Madrid: in January its zone is CET, one hour ahead of UTC.
          const timeZone = 'Europe/Madrid';
          return {
            slots: [
              { id: 'slot-1', startsAt: '2030-01-07T09:00:00+01:00', timeZone, place },
              { id: 'slot-2', startsAt: '2030-01-08T14:00:00+01:00', timeZone, place },
            ],
          };
        },
      },
      report: () => ({ color: 'neutral', details: 'The worker booked a verification appointment.' }),
    }),
    step('verification', {
      shortName: 'Verification',
      completedBy: 'partner',
      restartWhileAwaiting: false,
      awaiting: { color: 'warning', details: 'the partner is verifying the work authorization.' },
      previewResults: [
        { label: 'Passed', data: { result: 'passed' } },
        {
          label: 'Failed',
          data: { result: 'failed', details: 'The document could not be verified.' },
          // For the worker, apart from the details for the platform's admins (docs/connecting-your-backend.md).
          workerMessage: {
            en: 'We could not read the document in your photos.',
            es: 'No pudimos leer el documento de tus fotos.',
          },
        },
      ],
      failedNextStep: {
        en: 'Start again with clear photos of a valid document, or call the verification centre to ask what to do.',
        es: 'Empieza de nuevo con fotos claras de un documento válido, o llama al centro de verificación para saber qué hacer.',
      },
      report: (data) => {
        const details = data.details === undefined ? '' : ` ${data.details}`;
        return data.result === 'passed'
          ? { color: 'success', details: `The work authorization was verified.${details}` }
          : { color: 'danger', details: `The work authorization could not be verified.${details}`, failed: true };
      },
    }),
  ],
};

// What the kit finds in this folder (docs/architecture.md#a-workflow-is-a-folder).
export default workAuthorization;
