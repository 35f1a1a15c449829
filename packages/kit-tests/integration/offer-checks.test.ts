import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '@partner-task-kit/server/delivery/webhook-signature';
import { offerBasis } from '@partner-task-kit/server/offers/offer-basis';
import { claimOfferCheck } from '@partner-task-kit/server/store/task-offers.repository';
import { stepOfferResponseSchema } from '@partner-task-kit/workflow/contract/step-offer';
import { taskViewSchema } from '@partner-task-kit/workflow/contract/task-view';
import { slotsOfferSchema } from '../fixtures/workflows/work-authorization/definition';
import { documentPhotos } from '../helpers/file-uploads';
import { startOfferBackend } from '../helpers/offer-backend';
import { bearer, errorCode, newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

/** The fixture's appointment step waits this long before it asks for an empty offer again (its `checkAgainAfterMs`). */
const CHECK_AGAIN_AFTER_MS = 30_000;

/**
 * An empty offer is never final (docs/api.md#get-apitaskstepsstepidoffer, docs/connecting-your-backend.md#offers): the
 * server asks the partner's backend again when an answer it depends on changes, whatever to, and on a page load or
 * "Check again" once the step's wait is over, never before; each request names the worker's language.
 */
describe.each(testDatabases)('empty offers asked again on $name', (engine) => {
  const secret = newWebhookSecret();
  let backend: Awaited<ReturnType<typeof startOfferBackend>>;
  let t: TaskApp;
  let headers: Record<string, string>;

  beforeEach(async () => {
    backend = await startOfferBackend(secret);
    t = await openTaskApp({
      engine,
      env: { PARTNER_BACKEND_URL: backend.url, PARTNER_WEBHOOK_SECRET: secret, OFFER_TIMEOUT_MS: '1000' },
    });
    // The partner verifies the signature's timestamp against its own clock (5 minutes' tolerance).
    t.clock.set(Date.now());
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { ...newContext(), workflow: 'work-authorization' },
    });
    expect(session.statusCode, session.body).toBe(200);
    const token = (session.json() as { token: string }).token;
    headers = bearer(token);
    // Each answer made once the task is at its step: the photos are uploaded for the step at hand only.
    for (const [id, answer] of [
      ['citizenship', async () => ({ citizen: true })],
      ['national-id', async () => ({ nationalId: 'ZX9081726' })],
      ['photos', () => documentPhotos(t.app, token)],
      ['postcode', async () => ({ postcode: '28001' })],
    ] as const) {
      const saved = await step(id, await answer());
      expect(saved.statusCode, saved.body).toBe(200);
    }
  });
  afterEach(async () => {
    await t?.close();
    await backend?.close();
  });

  const step = (id: string, data: unknown) => t.app.inject({ method: 'POST', url: `/api/task/steps/${id}`, headers, payload: { data } });
  const getOffer = async (query = '') => {
    const response = await t.app.inject({ method: 'GET', url: `/api/task/steps/appointment/offer${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    const answer = stepOfferResponseSchema.parse(response.json());
    return { ...answer, slots: slotsOfferSchema.parse(answer.offer).slots.map((slot) => slot.id) };
  };
  const changePostcode = async (postcode: string) => {
    const back = await t.app.inject({ method: 'POST', url: '/api/task/back', headers, payload: { from: 'appointment' } });
    expect(back.statusCode, back.body).toBe(200);
    expect((await step('postcode', { postcode })).statusCode).toBe(200);
  };
  const askedPostcodes = () => backend.requests.map((request) => (request.body.data.answers.postcode as { postcode: string }).postcode);

  it('asks again after the postcode changes and changes back (A, B, A), the empty offer for A forgotten', async () => {
    await backend.set('none');
    const first = await getOffer();
    expect(first.slots).toEqual([]);
    // B, then at once back to A, before any offer for B was loaded: the answers are A's again, the kept offer is not.
    await changePostcode('SW1A 1AA');
    await backend.set('offers');
    await changePostcode('28001');
    const again = await getOffer();
    expect(askedPostcodes()).toEqual(['28001', '28001']);
    expect(again.slots).toEqual(['28001-1', '28001-2']);
    expect([first.empty, again.empty]).toEqual([true, false]);
    expect((await step('appointment', { slotId: '28001-1' })).statusCode).toBe(200);
  });

  it('answers the kept empty offer within the wait, with when it asks again, and asks on the first load after it', async () => {
    await backend.set('none');
    const first = await getOffer();
    expect(first).toMatchObject({ slots: [], empty: true, checkAgainInMs: CHECK_AGAIN_AFTER_MS });
    expect(Date.parse(first.checkAgainAt!)).toBe(t.clock.now() + CHECK_AGAIN_AFTER_MS);

    // A reload loop within the wait: the kept offer, the same time to ask again, and no request to the backend.
    await backend.set('offers');
    t.clock.advance(10_000);
    for (let reload = 0; reload < 5; reload += 1) {
      expect(await getOffer()).toMatchObject({ slots: [], empty: true, checkAgainAt: first.checkAgainAt, checkAgainInMs: 20_000 });
    }
    // The same postcode saved again ("Change my postcode" with no change) changes nothing either.
    await changePostcode('28001');
    expect(await getOffer()).toMatchObject({ slots: [], empty: true, checkAgainAt: first.checkAgainAt });
    expect(backend.requests).toHaveLength(1);

    // The next day, or 30 s later: a page load asks again and the worker books, having redone nothing.
    t.clock.advance(20_000);
    const later = await getOffer();
    expect(later).toMatchObject({ slots: ['28001-1', '28001-2'], empty: false });
    expect(later).not.toHaveProperty('checkAgainAt');
    expect(backend.requests).toHaveLength(2);
    expect((await step('appointment', { slotId: '28001-2' })).statusCode).toBe(200);
  });

  it('"Check again" still empty starts a new wait; many at once make one request; a failed check keeps the empty offer', async () => {
    await backend.set('none');
    await getOffer();
    t.clock.advance(CHECK_AGAIN_AFTER_MS);
    const checks = await Promise.all([getOffer(), getOffer(), getOffer(), getOffer()]);
    expect(checks.map((check) => check.checkAgainInMs)).toEqual([
      CHECK_AGAIN_AFTER_MS,
      CHECK_AGAIN_AFTER_MS,
      CHECK_AGAIN_AFTER_MS,
      CHECK_AGAIN_AFTER_MS,
    ]);
    expect(backend.requests).toHaveLength(2);

    // The backend fails the next check: the worker still sees no slots and when to check again, not an error, and
    // the failed ask counts as an ask.
    t.clock.advance(CHECK_AGAIN_AFTER_MS);
    await backend.set('error');
    expect(await getOffer()).toMatchObject({ slots: [], empty: true, checkAgainInMs: CHECK_AGAIN_AFTER_MS });
    const afterFailure = backend.requests.length;
    expect(afterFailure).toBeGreaterThan(2);
    await backend.set('offers');
    t.clock.advance(CHECK_AGAIN_AFTER_MS - 1);
    expect(await getOffer()).toMatchObject({ slots: [], empty: true, checkAgainInMs: 1 });
    expect(backend.requests).toHaveLength(afterFailure);
    t.clock.advance(1);
    expect(await getOffer()).toMatchObject({ slots: ['28001-1', '28001-2'] });
  });

  it('lets one instance of several ask again: the check is claimed in the database', async () => {
    await backend.set('none');
    await getOffer();
    const task = taskViewSchema.parse((await t.app.inject({ method: 'GET', url: '/api/task', headers })).json());
    const marks = { taskId: task.id, stepId: 'appointment', attempt: 1, basis: offerBasis({ postcode: { postcode: '28001' } }) };
    const due = t.clock.now() + CHECK_AGAIN_AFTER_MS;
    const claim = () => claimOfferCheck(t.database.store.db, { ...marks, askedBefore: due - CHECK_AGAIN_AFTER_MS - 1, now: due });
    expect(await claim()).toBe(false);
    const onTime = () => claimOfferCheck(t.database.store.db, { ...marks, askedBefore: due - CHECK_AGAIN_AFTER_MS, now: due });
    expect([await onTime(), await onTime()]).toEqual([true, false]);
  });

  it("sends the page's language with each request, and refuses one that is not a language tag", async () => {
    await getOffer('?locale=es');
    await changePostcode('SW1A 1AA');
    await getOffer();
    await changePostcode('28002');
    await getOffer('?locale=es-mx');
    expect(backend.requests.map((request) => request.body.data.locale)).toEqual(['es', null, 'es-MX']);

    const refused = await t.app.inject({ method: 'GET', url: '/api/task/steps/appointment/offer?locale=not%20a%20language', headers });
    expect([refused.statusCode, errorCode(refused), refused.json().error.field]).toEqual([400, 'bad_request', 'locale']);
    expect(backend.requests).toHaveLength(3);
  });

  it('answers the offer a booked slot was chosen from, once the task has moved on, without asking again', async () => {
    const shown = await getOffer('?locale=en');
    expect((await step('appointment', { slotId: '28001-2' })).statusCode).toBe(200);
    const later = await getOffer('?locale=en');
    expect(later).toEqual({ ...shown, slots: shown.slots });
    expect(backend.requests).toHaveLength(1);
    // Another step than the one with the offer is still refused.
    const other = await t.app.inject({ method: 'GET', url: '/api/task/steps/postcode/offer', headers });
    expect(errorCode(other)).toBe('step_out_of_order');
  });
});
