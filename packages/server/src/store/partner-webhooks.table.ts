import type { Selectable } from 'kysely';

/** Each tenant's endpoint for task events (docs/connecting-your-backend.md#events-to-your-backend); secrets sealed under CREDENTIALS_KEY. */
export interface PartnerWebhooksTable {
  company_uuid: string;
  url: string;
  sealed_secret: string;
  /** The secret a rotation replaced: it signs beside the new one until `previous_until`. */
  sealed_previous_secret: string | null;
  previous_until: number | null;
  created_at: number;
  rotated_at: number | null;
}

export type PartnerWebhookRow = Selectable<PartnerWebhooksTable>;

/** A webhook as the CLI lists it: never a secret, sealed or not. */
export interface PartnerWebhookListing {
  companyUuid: string;
  url: string;
  createdAt: number;
  rotatedAt: number | null;
  /** Until when the replaced secret still signs; null when no rotation left one. */
  previousUntil: number | null;
}

export function toPartnerWebhookListing(row: Omit<PartnerWebhookRow, 'sealed_secret' | 'sealed_previous_secret'>): PartnerWebhookListing {
  return {
    companyUuid: row.company_uuid,
    url: row.url,
    createdAt: Number(row.created_at),
    rotatedAt: row.rotated_at === null ? null : Number(row.rotated_at),
    previousUntil: row.previous_until === null ? null : Number(row.previous_until),
  };
}
