import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '@partner-task-kit/server/delivery/webhook-signature';
import { stepOfferResponseSchema } from '@partner-task-kit/workflow/contract/step-offer';
import { taskViewSchema } from '@partner-task-kit/workflow/contract/task-view';
import { slotsOfferSchema } from '../fixtures/workflows/work-authorization/definition';
import { documentPhotos } from '../helpers/file-uploads';
import { startOfferBackend, type OfferBackendMode as Mode } from '../helpers/offer-backend';
import { bearer, errorCode, newContext, openTaskApp, type TaskApp } from '../helpers/task-app';
import { testDatabases } from '../helpers/test-databases';

const NATIONAL_ID = 'ZX9081726';
const OFFER_TIMEOUT_MS = 1_000;

describe.each(testDatabases)('offers from the partner backend on $name', (engine) => {
  const secret = newWebhookSecret();
  let backend: Awaited<ReturnType<typeof startOfferBackend>>;
  let t: TaskApp;
  let headers: Record<string, string>;

  beforeEach(async () => {
    backend = await startOfferBackend(secret);
    t = await openTaskApp({
      engine,
      env: {
        ...{ PARTNER_BACKEND_URL: backend.url, PARTNER_WEBHOOK_SECRET: secret, OFFER_TIMEOUT_MS: String(OFFER_TIMEOUT_MS) },
        SENSITIVE_DATA_KEYS: `k1:${randomBytes(32).toString('base64url')}`,
      },
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
      ['national-id', async () => ({ nationalId: NATIONAL_ID })],
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
  const getOffer = (stepId = 'appointment') => t.app.inject({ method: 'GET', url: `/api/task/steps/${stepId}/offer`, headers });
  const task = async () => taskViewSchema.parse((await t.app.inject({ method: 'GET', url: '/api/task', headers })).json());
  const slotsOf = (body: unknown) => slotsOfferSchema.parse(stepOfferResponseSchema.parse(body).offer).slots;

  it('asks with a signed request carrying the postcode and never the national ID, keeps the offer, and checks the answer against it', async () => {
    const response = await getOffer();
    expect(response.statusCode, response.body).toBe(200);
    expect(slotsOf(response.json()).map((slot) => slot.id)).toEqual(['28001-1', '28001-2']);

    expect(backend.requests).toHaveLength(1);
    const [request] = backend.requests;
    expect(request!.verified).toBe(true);
    expect(request!.body).toMatchObject({
      type: 'offer.requested',
      data: { workflowId: 'work-authorization', stepId: 'appointment', attempt: 1, answers: { postcode: { postcode: '28001' } } },
    });
    expect(Object.keys(request!.body.data.answers)).toEqual(['postcode']);
    expect(request!.raw).not.toContain(NATIONAL_ID);
    expect(request!.raw).not.toContain(NATIONAL_ID.slice(-2) + '"');

    // A reload shows the same offer, without asking again.
    const again = await getOffer();
    expect(again.json()).toEqual(response.json());
    expect(backend.requests).toHaveLength(1);

    const wrong = await step('appointment', { slotId: 'slot-invented' });
    expect(wrong.statusCode).toBe(400);
    expect(errorCode(wrong)).toBe('invalid_step_data');
    const booked = await step('appointment', { slotId: '28001-2' });
    expect(booked.statusCode, booked.body).toBe(200);
    expect((await task()).currentStep).toBe('verification');
  });

  it('loads a new offer after going back and changing the postcode', async () => {
    expect((await getOffer()).statusCode).toBe(200);
    const back = await t.app.inject({ method: 'POST', url: '/api/task/back', headers, payload: { from: 'appointment' } });
    expect(back.statusCode, back.body).toBe(200);
    expect((await step('postcode', { postcode: 'SW1A 1AA' })).statusCode).toBe(200);
    // The offer for the old postcode no longer holds: an answer from it is refused until the new one is loaded.
    expect(errorCode(await step('appointment', { slotId: '28001-1' }))).toBe('offer_not_loaded');

    const fresh = await getOffer();
    expect(slotsOf(fresh.json()).map((slot) => slot.id)).toEqual(['SW1A 1AA-1', 'SW1A 1AA-2']);
    expect(backend.requests.map((request) => request.body.data.answers)).toEqual([
      { postcode: { postcode: '28001' } },
      { postcode: { postcode: 'SW1A 1AA' } },
    ]);
    expect(errorCode(await step('appointment', { slotId: '28001-1' }))).toBe('invalid_step_data');
  });

  it.each<Mode>(['down', 'slow', 'junk', 'error'])(
    'answers offer_unavailable within the timeout plus 1 s when the backend is %s, changes nothing, and goes on once it recovers',
    async (failure) => {
      const before = await task();
      await backend.set(failure);
      const started = performance.now();
      const response = await getOffer();
      const elapsed = performance.now() - started;
      expect(response.statusCode, response.body).toBe(424);
      expect(errorCode(response)).toBe('offer_unavailable');
      expect(elapsed).toBeLessThan(OFFER_TIMEOUT_MS + 1_000);
      expect(await task()).toEqual(before);
      expect(errorCode(await step('appointment', { slotId: '28001-1' }))).toBe('offer_not_loaded');

      await backend.set('offers');
      const recovered = await getOffer();
      expect(recovered.statusCode, recovered.body).toBe(200);
      expect((await step('appointment', { slotId: '28001-1' })).statusCode).toBe(200);
      expect((await task()).currentStep).toBe('verification');
    },
  );

  it('asks once for two pages that load the offer at the same time', async () => {
    const [first, second] = await Promise.all([getOffer(), getOffer()]);
    expect(first.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(backend.requests).toHaveLength(1);
  });

  it('serves only the current step, and only a step with an offer', async () => {
    expect(errorCode(await getOffer('postcode'))).toBe('step_out_of_order');
    const back = await t.app.inject({ method: 'POST', url: '/api/task/back', headers, payload: { from: 'appointment' } });
    expect(back.statusCode).toBe(200);
    const response = await getOffer('postcode');
    expect(response.statusCode).toBe(404);
    expect(errorCode(response)).toBe('invalid_step');
    expect(backend.requests).toHaveLength(0);
  });
});
