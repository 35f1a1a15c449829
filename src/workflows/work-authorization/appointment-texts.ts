import type { Locale } from '@partner-task-kit/page/screens';

/** The appointment's own texts (steps/appointment.tsx, booked-appointment.tsx), beside the workflow's texts.*.ts, in each language. */
export interface AppointmentTexts {
  intro: string;
  loading: string;
  legend: string;
  chooseError: string;
  /** The partner's backend did not answer (424 offer_unavailable), or the page could not reach the server. */
  unavailable: string;
  tryAgain: string;
  none: string;
  /** "Check again" was pressed and the backend still offers none. */
  stillNone: string;
  checkAgain: string;
  checking: string;
  /** Below "Check again" until it opens: `wait` is a duration in words ("30 seconds"). */
  checkAgainIn(wait: string): string;
  changePostcode: string;
  /** A slot and its place, read as one option. */
  slot(when: string, place: string): string;
  /** The heading of what the worker booked, on the screens after the step. */
  booked: string;
}

export const appointmentTexts: Record<Locale, AppointmentTexts> = {
  en: {
    intro: 'Choose a time to show your documents at a verification centre near you.',
    loading: 'Loading the appointments near you…',
    legend: 'Available appointments',
    chooseError: 'Choose one of the appointments.',
    unavailable: 'We could not load the appointments just now. Please try again in a moment.',
    tryAgain: 'Try again',
    none: 'There are no appointments near this postcode at the moment. Check again later, or change your postcode to look elsewhere.',
    stillNone: 'We checked again: there are still no appointments near this postcode. Check again later, or change your postcode.',
    checkAgain: 'Check again',
    checking: 'Checking…',
    checkAgainIn: (wait) => `You can check again in ${wait}.`,
    changePostcode: 'Change my postcode',
    slot: (when, place) => `${when}, ${place}`,
    booked: 'Your appointment',
  },
  es: {
    intro: 'Elige una hora para presentar tus documentos en un centro de verificación cerca de ti.',
    loading: 'Cargando las citas cerca de ti…',
    legend: 'Citas disponibles',
    chooseError: 'Elige una de las citas.',
    unavailable: 'No hemos podido cargar las citas en este momento. Vuelve a intentarlo en un momento.',
    tryAgain: 'Volver a intentar',
    none: 'No hay citas cerca de este código postal por ahora. Vuelve a comprobarlo más tarde o cambia tu código postal para buscar en otra zona.',
    stillNone:
      'Lo hemos comprobado de nuevo: sigue sin haber citas cerca de este código postal. Vuelve a comprobarlo más tarde o cambia tu código postal.',
    checkAgain: 'Volver a comprobar',
    checking: 'Comprobando…',
    checkAgainIn: (wait) => `Podrás volver a comprobarlo dentro de ${wait}.`,
    changePostcode: 'Cambiar mi código postal',
    slot: (when, place) => `${when}, ${place}`,
    booked: 'Tu cita',
  },
};
