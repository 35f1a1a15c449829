import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** One event as the built-in receiver got it: what the preview's "Partner backend" panel lists. */
export interface ReceivedEvent {
  receivedAt: number;
  webhookId: string;
  type: string;
  assignedTaskUuid: string | null;
  /** Checked with the `standardwebhooks` package, as a partner's receiver would (docs/connecting-your-backend.md#events-to-your-backend). */
  verified: boolean;
  /** Why the signature did not verify, when it did not. */
  verifyError?: string;
  /** The body as sent, parsed when it is JSON. */
  body: unknown;
}

/** Enough for a developer's session; the oldest go first. */
const KEPT_EVENTS = 500;

/**
 * The partner's backend as emulator mode stands it in (docs/development.md#emulator-mode): with no PARTNER_WEBHOOK_URL,
 * the partner lane delivers here, signed with a secret made for this start, so the whole loop runs offline. It keeps
 * the events in memory and verifies each with the Standard Webhooks reference package, not with our own signer.
 */
export class PartnerBackendReceiver {
  readonly secret = `whsec_${randomBytes(32).toString('base64')}`;
  private readonly verifier = new Webhook(this.secret);
  private readonly events: ReceivedEvent[] = [];
  /** Records one delivery, verified or not: the panel shows a bad signature rather than hiding the event. */
  receive(headers: Record<string, string | string[] | undefined>, body: string, now: number): void {
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : (value ?? '');
    };
    let verified = true;
    let verifyError: string | undefined;
    try {
      this.verifier.verify(body, {
        'webhook-id': header('webhook-id'),
        'webhook-timestamp': header('webhook-timestamp'),
        'webhook-signature': header('webhook-signature'),
      });
    } catch (error) {
      verified = false;
      verifyError = error instanceof Error ? error.message : String(error);
    }
    const parsed = parseJson(body);
    const event: ReceivedEvent = {
      receivedAt: now,
      webhookId: header('webhook-id'),
      type: typeof parsed?.type === 'string' ? parsed.type : '',
      assignedTaskUuid: typeof parsed?.data?.assignedTaskUuid === 'string' ? parsed.data.assignedTaskUuid : null,
      verified,
      ...(verifyError === undefined ? {} : { verifyError }),
      body: parsed ?? body,
    };
    this.events.push(event);
    if (this.events.length > KEPT_EVENTS) this.events.splice(0, this.events.length - KEPT_EVENTS);
  }

  /** Newest first; a task's own when `assignedTaskUuid` is given (compared without letter case, as task ids are). */
  list(assignedTaskUuid?: string): ReceivedEvent[] {
    const wanted = assignedTaskUuid?.toLowerCase();
    return this.events.filter((event) => wanted === undefined || event.assignedTaskUuid?.toLowerCase() === wanted).reverse();
  }
}

function parseJson(text: string): { type?: unknown; data?: { assignedTaskUuid?: unknown } } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as { type?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}
