import { describe, expect, it } from 'vitest';
import type { Locale } from '@partner-task-kit/page/ui/i18n/locale';
import { AppointmentStep } from '../../src/workflows/work-authorization/appointment-step';
import { workAuthorizationTextsEn } from '../../src/workflows/work-authorization/texts.en';
import { workAuthorizationTextsEs } from '../../src/workflows/work-authorization/texts.es';
import { renderScreen } from '@partner-task-kit/testing';

const slots = {
  slots: [
    { id: 'slot-1', startsAt: '2030-01-07T09:00:00.000Z', place: 'Centro de verificación, 28001' },
    { id: 'slot-2', startsAt: '2030-01-08T14:30:00.000Z', place: 'Centro de verificación, 28001' },
  ],
};

/** The screen as it renders once GET /api/task/steps/appointment/offer has answered `offer`. */
function render(locale: Locale, offer: unknown, savedData: unknown = undefined): string {
  return renderScreen(AppointmentStep, {
    workflow: 'work-authorization',
    stepId: 'appointment',
    locale,
    texts: locale === 'es' ? workAuthorizationTextsEs : workAuthorizationTextsEn,
    savedData,
    offers: { appointment: offer },
  });
}

const radios = (html: string) => [...html.matchAll(/<input[^>]*type="radio"[^>]*>/g)].map((match) => match[0]);
const labels = (html: string) => [...html.matchAll(/<label for="appointment-slot-\d+">([^<]*)<\/label>/g)].map((match) => match[1]);

describe('the appointment screen', () => {
  it('shows the slots as one radio group, each dated in the worker’s language', () => {
    const utc = { timeZone: 'UTC' } as const;
    // The device's time zone decides the hour shown; the test compares with the same formatter's output.
    const when = (iso: string, locale: Locale) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(iso));
    const es = render('es', slots);
    expect(es).toContain('<legend>Citas disponibles</legend>');
    expect(radios(es)).toHaveLength(2);
    expect(radios(es).every((radio) => radio.includes('name="appointment-slot"'))).toBe(true);
    expect(labels(es)).toEqual(slots.slots.map((slot) => `${when(slot.startsAt, 'es')}, ${slot.place}`));
    expect(new Intl.DateTimeFormat('es', { dateStyle: 'full', ...utc }).format(new Date(slots.slots[0]!.startsAt))).toBe(
      'lunes, 7 de enero de 2030',
    );
    expect(labels(render('en', slots))[0]).toBe(`${when(slots.slots[0]!.startsAt, 'en')}, ${slots.slots[0]!.place}`);
  });

  it('keeps the saved choice checked when it is still offered', () => {
    const html = render('en', slots, { slotId: 'slot-2' });
    expect(radios(html).map((radio) => radio.includes('checked'))).toEqual([false, true]);
  });

  it.each([
    ['en', 'There are no appointments near this postcode', 'Change my postcode'],
    ['es', 'No hay citas cerca de este código postal', 'Cambiar mi código postal'],
  ] as const)('with no slots, says so in %s and offers to change the postcode, not an empty list', (locale, message, button) => {
    const html = render(locale, { slots: [] });
    expect(html).toContain(message);
    expect(html).toMatch(new RegExp(`<button[^>]*>${button}</button>`));
    expect(radios(html)).toEqual([]);
  });

  it('offers "Try again" for an offer it cannot read, rather than nothing', () => {
    const html = render('en', { slots: 'soon' });
    expect(html).toContain('We could not load the appointments just now.');
    expect(html).toMatch(/<button[^>]*>Try again<\/button>/);
  });
});
