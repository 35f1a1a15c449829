import autocannon from 'autocannon';
import { Registry } from 'prom-client';
import { systemClock } from '@partner-task-kit/server/clock';
import { deliveryLeaseMs } from '@partner-task-kit/server/delivery/delivery-lease';
import { createDeliveryMetrics } from '@partner-task-kit/server/delivery/delivery-metrics';
import { singleEndpoint } from '@partner-task-kit/server/delivery/partner-endpoints';
import { partnerWebhookSender } from '@partner-task-kit/server/delivery/partner-webhook-sender';
import { createHttpTransport } from '@partner-task-kit/server/upstream/http-transport';
import { startPartnerLane } from '@partner-task-kit/server/delivery/partner-lane';
import { defaultRetryPolicy } from '@partner-task-kit/server/delivery/retry-policy';
import { WakeSignal } from '@partner-task-kit/server/delivery/wake-signal';
import { signWebhook } from '@partner-task-kit/server/delivery/webhook-signature';
import { toOutboxUpdate, type OutboxUpdate } from '@partner-task-kit/server/store/outbox.table';
import { enqueuePartnerEvent } from '@partner-task-kit/server/store/partner-events.repository';
import type { Store } from '@partner-task-kit/server/store/store';
import type { Task } from '@partner-task-kit/server/store/tasks.table';
import { STEP_CYCLE } from './api-load';
import type { BareReceiver } from './bare-receiver-process';
import { openBenchTasks, round, runPool, waitUntilDrained } from './bench-support';
import { findTaskById } from '@partner-task-kit/server/store/tasks.repository';

/** Deliveries under way at once, set on the lane here (its default, packages/server/src/delivery/partner-lane.ts) and used for the receiver's and the sender's ceilings alike. */
export const PARTNER_LANE_CONCURRENCY = 16;

/**
 * The partner lane's relay as server.ts starts it (startPartnerLane: its own concurrency, the signing sender), draining
 * a backlog of events to a bare receiver, beside that receiver's own ceiling: the same requests, same size and headers,
 * sent by autocannon with the relay's concurrency. Between the two, the same events sent by the lane's sender alone
 * (no outbox): what of the gap is the HTTP client's and what the outbox's claims and settlements.
 */

const TIMEOUT_MS = 10_000;
const silent = { info: () => {}, warn: () => {}, error: (o: object, m: string) => console.error(m, o) };

export interface LaneDrainOptions {
  events: number;
  tasks: number;
  /** Seconds of each autocannon run of the receiver's ceiling. */
  ceilingSeconds: number;
  secret: string;
}

export async function measurePartnerLane(store: Store, receiver: BareReceiver, options: LaneDrainOptions) {
  const rows = await seedEvents(store, options);
  const sample = rows[0]!;
  const ceiling = () => receiverCeiling(receiver.url, sample, options);
  // Unmeasured: the receiver's JIT, as packages/kit-tests/bench/delivery.ts warms the emulator's, and the sender's connections.
  await ceiling();
  await senderCeiling(receiver.url, rows.slice(0, 1000), options.secret);

  const before = await ceiling();
  const sender = await senderCeiling(receiver.url, rows, options.secret);
  await receiver.reset();
  const started = performance.now();
  const relay = startPartnerLane({
    endpoints: singleEndpoint(receiver.url, options.secret),
    store,
    clock: systemClock,
    log: silent,
    metrics: createDeliveryMetrics(new Registry()).forLane('partner'),
    wakeSignal: new WakeSignal(),
    timeoutMs: TIMEOUT_MS,
    leaseMs: deliveryLeaseMs(TIMEOUT_MS),
    policy: defaultRetryPolicy,
    relay: { concurrency: PARTNER_LANE_CONCURRENCY },
  });
  if (!relay) throw new Error('startPartnerLane started no relay for an endpoint');
  await waitUntilDrained(store, 'partner');
  const drainSeconds = (performance.now() - started) / 1000;
  await relay.stop();
  const received = await receiver.counts();
  const after = await ceiling();
  const receiverPerSecond = round((before + after) / 2, 0);
  const deliveriesPerSecond = round(options.events / drainSeconds, 0);
  return {
    deliveriesPerSecond,
    receiverCeilingPerSecond: receiverPerSecond,
    ratioToCeiling: round(deliveriesPerSecond / receiverPerSecond, 2),
    senderAlonePerSecond: sender.perSecond,
    ratioToSenderAlone: round(deliveriesPerSecond / sender.perSecond, 2),
    senderAloneCpuMsPerEvent: sender.cpuMsPerEvent,
    eventBodyBytes: Buffer.byteLength(JSON.stringify(sample.payload)),
    relayConnections: received.connections,
    // At least once: a repeat would show here as more requests than events.
    requestsReceived: received.requests,
  };
}

/** A `task.step_saved` of the quiz (the step benchmark's own answers) per event, spread over the tasks; the rows as stored. */
async function seedEvents(store: Store, { events, tasks: taskCount }: LaneDrainOptions): Promise<OutboxUpdate[]> {
  const quiz = STEP_CYCLE.find((entry) => entry.path.endsWith('/quiz'))!;
  const stepData = { quiz: (JSON.parse(quiz.body) as { data: unknown }).data };
  const tasks: Task[] = [];
  for (const opened of (await openBenchTasks(store, taskCount)).tasks) {
    tasks.push({ ...(await findTaskById(store.db, opened.id))!, status: 'inProgress', stepData });
  }
  const batch = 500;
  for (let from = 0; from < events; from += batch) {
    await store.db.transaction().execute(async (trx) => {
      for (let index = from; index < Math.min(events, from + batch); index += 1) {
        await enqueuePartnerEvent(trx, { task: tasks[index % taskCount]!, type: 'task.step_saved', now: Date.now(), stepId: 'quiz' });
      }
    });
  }
  const rows = await store.db.selectFrom('outbox').selectAll().where('lane', '=', 'partner').orderBy('id').execute();
  return rows.map(toOutboxUpdate);
}

/** autocannon POSTing one stored event, signed as the sender signs it, with the relay's concurrency: requests/s. */
async function receiverCeiling(url: string, row: OutboxUpdate, options: LaneDrainOptions): Promise<number> {
  const body = JSON.stringify(row.payload);
  const id = `msg_${row.taskId}_${row.id}`;
  const timestampSeconds = Math.floor(Date.now() / 1000);
  const result = await autocannon({
    url,
    method: 'POST',
    connections: PARTNER_LANE_CONCURRENCY,
    duration: options.ceilingSeconds,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': signWebhook([options.secret], { id, timestampSeconds, body }),
    },
    body,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`receiver ceiling: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return round(result['2xx'] / result.duration, 0);
}

/**
 * The stored events sent by the lane's own sender (partner-webhook-sender.ts) with the relay's concurrency, no outbox:
 * events/s, and this process's CPU per event (signing, the HTTP client's request and its answer), the floor of what
 * one event costs the server whatever the outbox does.
 */
async function senderCeiling(url: string, rows: OutboxUpdate[], secret: string): Promise<{ perSecond: number; cpuMsPerEvent: number }> {
  const transport = createHttpTransport();
  const sender = partnerWebhookSender(
    { url, secrets: () => [secret] },
    { clock: systemClock, timeoutMs: TIMEOUT_MS, send: transport.send },
  );
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  try {
    await runPool(rows.length, PARTNER_LANE_CONCURRENCY, async (index) => {
      const row = rows[index]!;
      const outcome = await sender.updatePartnerTask(row.assignedTaskUuid, row.payload, row);
      if (outcome.kind !== 'delivered') throw new Error(`sender alone: ${outcome.kind}`);
    });
  } finally {
    transport.close();
  }
  const cpu = process.cpuUsage(cpuBefore);
  return {
    perSecond: round(rows.length / ((performance.now() - started) / 1000), 0),
    cpuMsPerEvent: round((cpu.user + cpu.system) / 1000 / rows.length, 3),
  };
}
