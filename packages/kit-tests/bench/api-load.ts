import { randomUUID } from 'node:crypto';
import http from 'node:http';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { POLICY_VERSION } from '../fixtures/workflows/safety-training/definition';
import { BARE_ROUTE } from './bare-route';
import { percentile, round, runPool } from './bench-support';

/**
 * No step of the example workflow can be saved twice: the engine accepts only the current step (step-engine.ts,
 * `step_out_of_order`), and the quiz allows three tries before the task fails. So each task runs its whole attempt
 * and restarts: four step submissions then one restart, all valid, all one write transaction with an outbox row.
 * The quiz answers are the correct ones (definition.server.ts) so that every attempt reaches the signature.
 */
export const STEP_CYCLE = [
  { kind: 'step', path: '/api/task/steps/welcome', body: { data: {} } },
  { kind: 'step', path: '/api/task/steps/policy', body: { data: { acknowledged: true, policyVersion: POLICY_VERSION } } },
  {
    kind: 'step',
    path: '/api/task/steps/quiz',
    body: { data: { answers: { exits: 'b', spill: 'a', ppe: 'c', injury: 'a', lifting: 'b' } } },
  },
  { kind: 'step', path: '/api/task/steps/signature', body: { data: { fullName: 'Bench Worker', confirmed: true } } },
  { kind: 'restart', path: '/api/task/restart', body: {} },
].map((entry) => ({ ...entry, body: JSON.stringify(entry.body) }));

/** `count` tasks opened through `POST /api/session`, each with a fresh context: their session tokens. */
export async function openSessions(url: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  await runPool(count, 8, async () => {
    const context = {
      wxWorkerUuid: randomUUID(),
      wxAssignedTaskUuid: randomUUID(),
      wxTaskFlowUuid: randomUUID(),
      wxCompanyUuid: randomUUID(),
    };
    const response = await fetch(`${url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(context),
    });
    if (!response.ok) throw new Error(`POST /api/session answered ${response.status}: ${await response.text()}`);
    tokens.push(((await response.json()) as { token: string }).token);
  });
  return tokens;
}

export interface LoadFigures {
  requestsPerSecond: number;
  /** Latency of the step submissions alone (restarts left out), ms. */
  stepLatencyMs: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

export async function runBare(url: string, connections: number, duration: number): Promise<LoadFigures> {
  const result = await autocannon({ url: `${url}${BARE_ROUTE}`, connections, duration });
  const latency = { p50: result.latency.p50, p99: result.latency.p99 };
  return {
    requestsPerSecond: round(result['2xx'] / result.duration, 0),
    stepLatencyMs: latency,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * The step cycle under autocannon. Each connection takes an idle task at the cycle's start and gives it back after the
 * restart, so a task is never driven by two connections at once and the load spreads over many distinct tasks.
 */
export async function runSteps(
  url: string,
  idle: string[],
  options: { connections: number; duration: number; overallRate?: number },
): Promise<LoadFigures> {
  const requests: AutocannonRequest[] = STEP_CYCLE.map((entry, index) => ({
    method: 'POST',
    path: entry.path,
    kind: entry.kind,
    body: entry.body,
    setupRequest: (request, context) => {
      if (index === 0) context.token = idle.shift();
      return { ...request, headers: { 'content-type': 'application/json', authorization: `Bearer ${String(context.token)}` } };
    },
    ...(index === STEP_CYCLE.length - 1
      ? { onResponse: (_status: number, _body: string, context: Record<string, unknown>) => void idle.push(String(context.token)) }
      : {}),
  }));
  const instance = autocannon({ url, requests, ...options });
  const stepLatencies: number[] = [];
  // Emitted before the connection moves on, so `currentRequest` is still the one just answered (no pipelining).
  instance.on('response', (client, status, _bytes, latency) => {
    if (client.requestIterator.currentRequest.kind === 'step' && status < 300) stepLatencies.push(latency);
  });
  const result = await instance;
  stepLatencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: round(result['2xx'] / result.duration, 0),
    stepLatencyMs: { p50: round(percentile(stepLatencies, 50), 1), p99: round(percentile(stepLatencies, 99), 1) },
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * An open-loop driver: one request every 1/rate s on its schedule, latency counted from when it was due. autocannon's
 * overallRate instead lets each connection send its share of a second back to back at the start of that second, a
 * burst of `connections` concurrent requests, which is not "500 requests per second" as a server sees real traffic.
 */
export async function runPaced(
  url: string,
  idle: string[],
  rate: number,
  durationSeconds: number,
): Promise<{ sent: number; p50: number; p99: number; non2xx: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const cursors = idle.splice(0).map((token) => ({ token, index: 0 }));
  const latencies: number[] = [];
  let non2xx = 0;
  const total = rate * durationSeconds;
  const interval = 1000 / rate;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let sent = 0; sent < total; sent += 1) {
    const due = started + sent * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    // Every task in flight (the server is far behind): wait for one; latency still counts from the due time.
    while (cursors.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const cursor = cursors.shift()!;
    const entry = STEP_CYCLE[cursor.index]!;
    inFlight.push(
      postStep(agent, `${url}${entry.path}`, cursor.token, entry.body).then((status) => {
        if (status === 0 || status >= 300) non2xx += 1;
        else if (entry.kind === 'step') latencies.push(performance.now() - due);
        cursor.index = (cursor.index + 1) % STEP_CYCLE.length;
        cursors.push(cursor);
      }),
    );
  }
  await Promise.all(inFlight);
  // Unmeasured: each task runs to the end of its cycle, so the pool gets every task back at a cycle's start.
  await runPool(cursors.length, 8, async (index) => {
    const cursor = cursors[index]!;
    for (; cursor.index !== 0; cursor.index = (cursor.index + 1) % STEP_CYCLE.length) {
      const entry = STEP_CYCLE[cursor.index]!;
      await postStep(agent, `${url}${entry.path}`, cursor.token, entry.body);
    }
  });
  agent.destroy();
  idle.push(...cursors.map((cursor) => cursor.token));
  latencies.sort((a, b) => a - b);
  return { sent: total, p50: round(percentile(latencies, 50), 1), p99: round(percentile(latencies, 99), 1), non2xx };
}

function postStep(agent: http.Agent, url: string, token: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      },
    );
    // A reset connection is a failed request to count, not a reason to abandon the run.
    request.once('error', () => resolve(0));
    request.end(body);
  });
}
