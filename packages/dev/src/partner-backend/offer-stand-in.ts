import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WorkflowCatalog } from '@partner-task-kit/workflow';
import { stepById } from '@partner-task-kit/workflow';

/** What the stand-in answers the next offer requests with, as the preview's panel chose (docs/development.md#the-partner-backend-panel). */
export const offerAnswerModes = ['offers', 'none', 'error', 'slow'] as const;
export type OfferAnswerMode = (typeof offerAnswerModes)[number];

/** One offer request as the stand-in got it: what the panel lists. */
export interface ReceivedOfferRequest {
  receivedAt: number;
  webhookId: string;
  workflowId: string;
  stepId: string;
  assignedTaskUuid: string | null;
  /** Checked with the `standardwebhooks` package, as a partner's backend would. */
  verified: boolean;
  /** How it was answered. */
  answeredWith: OfferAnswerMode;
  body: unknown;
}

export type StandInAnswer = { status: number; body: unknown } | { slow: true };

const KEPT_REQUESTS = 200;

/**
 * Emulator mode's stand-in of the partner's backend for offers (docs/connecting-your-backend.md#offers), with no
 * PARTNER_BACKEND_URL: the server asks it over loopback HTTP as it would ask the partner, signed with a secret made
 * for this start. It answers the step's `sample` of the answers and language sent, or what the developer chose:
 * nothing to choose (`empty`), an error (500), or no answer within the timeout.
 */
export class OfferStandIn {
  readonly secret = `whsec_${randomBytes(32).toString('base64')}`;
  private readonly verifier = new Webhook(this.secret);
  private readonly requests: ReceivedOfferRequest[] = [];
  /** By assigned task (lowercase), as the panel is: two tasks in two preview tabs are answered each as chosen for it. */
  private readonly modes = new Map<string, OfferAnswerMode>();

  constructor(private readonly workflows: WorkflowCatalog) {}

  modeOf(assignedTaskUuid: string | undefined): OfferAnswerMode {
    return (assignedTaskUuid !== undefined && this.modes.get(assignedTaskUuid.toLowerCase())) || 'offers';
  }

  setMode(assignedTaskUuid: string, mode: OfferAnswerMode): void {
    if (mode === 'offers') this.modes.delete(assignedTaskUuid.toLowerCase());
    else this.modes.set(assignedTaskUuid.toLowerCase(), mode);
  }

  answer(input: {
    workflowId: string;
    stepId: string;
    headers: Record<string, string | string[] | undefined>;
    body: string;
    now: number;
  }): StandInAnswer {
    const header = (name: string) => {
      const value = input.headers[name];
      return Array.isArray(value) ? value.join(', ') : (value ?? '');
    };
    let verified = true;
    let parsed: { data?: { assignedTaskUuid?: unknown; answers?: unknown; locale?: unknown } } | undefined;
    try {
      parsed = this.verifier.verify(input.body, {
        'webhook-id': header('webhook-id'),
        'webhook-timestamp': header('webhook-timestamp'),
        'webhook-signature': header('webhook-signature'),
      }) as typeof parsed;
    } catch {
      verified = false;
    }
    const assignedTaskUuid = typeof parsed?.data?.assignedTaskUuid === 'string' ? parsed.data.assignedTaskUuid : null;
    const mode = this.modeOf(assignedTaskUuid ?? undefined);
    this.requests.push({
      receivedAt: input.now,
      webhookId: header('webhook-id'),
      workflowId: input.workflowId,
      stepId: input.stepId,
      assignedTaskUuid,
      verified,
      answeredWith: mode,
      body: parsed ?? input.body,
    });
    if (this.requests.length > KEPT_REQUESTS) this.requests.splice(0, this.requests.length - KEPT_REQUESTS);
    // As a partner's backend must: an unsigned request is refused.
    if (!verified) return { status: 401, body: { error: 'the signature does not verify' } };
    const workflow = this.workflows.find(input.workflowId)?.definition;
    const offer = workflow && stepById(workflow, input.stepId)?.offer;
    if (!offer) return { status: 404, body: { error: `no offer for ${input.workflowId}/${input.stepId}` } };
    switch (mode) {
      case 'offers': {
        const answers = parsed?.data?.answers;
        const locale = typeof parsed?.data?.locale === 'string' ? parsed.data.locale : null;
        return {
          status: 200,
          body: offer.sample(typeof answers === 'object' && answers !== null ? (answers as Record<string, unknown>) : {}, { locale }),
        };
      }
      case 'none':
        return { status: 200, body: offer.empty };
      case 'error':
        return { status: 500, body: { error: 'the stand-in answers an error, as the preview asked' } };
      case 'slow':
        return { slow: true };
    }
  }

  /** Newest first; a task's own when `assignedTaskUuid` is given. */
  list(assignedTaskUuid?: string): ReceivedOfferRequest[] {
    const wanted = assignedTaskUuid?.toLowerCase();
    return this.requests.filter((request) => wanted === undefined || request.assignedTaskUuid?.toLowerCase() === wanted).reverse();
  }
}
