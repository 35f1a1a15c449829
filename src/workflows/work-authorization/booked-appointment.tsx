import { useQuery } from '@tanstack/react-query';
import { useApiClient, stepOfferQueryOptions, type Locale } from '@partner-task-kit/page/screens';
import type { TaskView } from '@partner-task-kit/workflow/contract';
import { appointmentTexts } from './appointment-texts';
import { slotsOfferSchema, workAuthorizationSchemas } from './definition';
import { slotTime } from './slot-time';

/**
 * What the worker booked at the appointment step, on the screens after it (waiting, done): their saved answer (the
 * slot's id) looked up in the offer the server kept for it (docs/api.md#get-apitaskstepsstepidoffer), so a reopened
 * task, in any browser, shows it too. Nothing while it loads, or when the task holds no appointment.
 */
export function BookedAppointment({ task, locale }: { task: TaskView; locale: Locale }) {
  const chosen = workAuthorizationSchemas.appointment.safeParse(task.stepData.appointment);
  return chosen.success ? <BookedSlot slotId={chosen.data.slotId} locale={locale} /> : null;
}

function BookedSlot({ slotId, locale }: { slotId: string; locale: Locale }) {
  const own = appointmentTexts[locale];
  const client = useApiClient();
  const offer = useQuery(stepOfferQueryOptions(client, 'appointment', locale));
  const slots = offer.data && slotsOfferSchema.safeParse(offer.data.offer);
  const slot = slots?.success ? slots.data.slots.find((one) => one.id === slotId) : undefined;
  if (!slot) return null;
  return (
    <section aria-labelledby="booked-appointment-title">
      <h2 id="booked-appointment-title">{own.booked}</h2>
      <p>{slotTime(slot, locale)}</p>
      <p>{slot.place}</p>
    </section>
  );
}
