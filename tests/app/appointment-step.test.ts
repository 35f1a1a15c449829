import { describe, expect, it } from 'vitest';
import type { Locale } from '@partner-task-kit/page/screens';
import AppointmentStep from '../../src/workflows/work-authorization/steps/appointment';
import VerificationStep from '../../src/workflows/work-authorization/steps/verification';
import workAuthorizationTextsEn from '../../src/workflows/work-authorization/texts.en';
import workAuthorizationTextsEs from '../../src/workflows/work-authorization/texts.es';
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
  it('shows the slots as one radio group, each dated in the worker’s language at its offset, the zone named', () => {
    const es = render('es', slots);
    expect(es).toContain('<legend>Citas disponibles</legend>');
    expect(radios(es)).toHaveLength(2);
    expect(radios(es).every((radio) => radio.includes('name="appointment-slot"'))).toBe(true);
    expect(labels(es)).toEqual([
      'lunes, 7 de enero de 2030, 9:00 UTC, Centro de verificación, 28001',
      'martes, 8 de enero de 2030, 14:30 UTC, Centro de verificación, 28001',
    ]);
    expect(labels(render('en', slots))[0]).toBe('Monday, January 7, 2030 at 9:00 AM UTC, Centro de verificación, 28001');
  });

  it('shows a time in the place’s own zone when the backend names it, whatever the device’s zone', () => {
    const madrid = { slots: [{ id: 'slot-1', startsAt: '2030-01-07T08:00:00Z', timeZone: 'Europe/Madrid', place: 'Centre, 28001' }] };
    expect(labels(render('en', madrid))).toEqual(['Monday, January 7, 2030 at 9:00 AM GMT+1, Centre, 28001']);
    expect(labels(render('es', madrid))).toEqual(['lunes, 7 de enero de 2030, 9:00 CET, Centre, 28001']);
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

  it.each([
    ['en', 'Check again', 'You can check again in 30 seconds.'],
    ['es', 'Volver a comprobar', 'Podrás volver a comprobarlo dentro de 30 segundos.'],
  ] as const)('with no slots, offers "Check again" in %s, closed until the server’s wait is over', (locale, button, hint) => {
    const html = renderScreen(AppointmentStep, {
      workflow: 'work-authorization',
      stepId: 'appointment',
      locale,
      texts: locale === 'es' ? workAuthorizationTextsEs : workAuthorizationTextsEn,
      offerAnswers: {
        appointment: { offer: { slots: [] }, loadedAt: '2026-03-01T09:00:00.000Z', empty: true, checkAgainInMs: 30_000 },
      },
    });
    const checkAgain = html.match(new RegExp(`<button[^>]*>${button}</button>`))?.[0];
    expect(checkAgain).toContain('aria-disabled="true"');
    expect(checkAgain).toContain('aria-describedby="appointment-check-again-hint"');
    expect(html).toContain(`<p id="appointment-check-again-hint" class="hint">${hint}</p>`);
    expect(radios(html)).toEqual([]);
  });

  it('offers "Try again" for an offer it cannot read, rather than nothing', () => {
    const html = render('en', { slots: 'soon' });
    expect(html).toContain('We could not load the appointments just now.');
    expect(html).toMatch(/<button[^>]*>Try again<\/button>/);
  });
});

describe('the waiting screen', () => {
  it('shows the appointment booked, from the saved answer and the offer the server kept for it', () => {
    const booked = { slots: [{ id: 'slot-2', startsAt: '2030-01-08T14:00:00+01:00', timeZone: 'Europe/Madrid', place: 'Centre, 28001' }] };
    const html = renderScreen(VerificationStep, {
      workflow: 'work-authorization',
      stepId: 'verification',
      locale: 'en',
      texts: workAuthorizationTextsEn,
      task: { stepData: { postcode: { postcode: '28001' }, appointment: { slotId: 'slot-2' } } },
      offers: { appointment: booked },
    });
    expect(html).toContain('<h2 id="booked-appointment-title">Your appointment</h2>');
    expect(html).toContain('<p>Tuesday, January 8, 2030 at 2:00 PM GMT+1</p><p>Centre, 28001</p>');
  });
});
