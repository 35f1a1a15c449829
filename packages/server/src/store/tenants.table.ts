import type { Selectable } from 'kysely';

export interface TenantsTable {
  /** docs/platform.md#authentication: each client company creates its own integration and keys. */
  company_uuid: string;
  api_key: string;
  /** The Secret sealed with AES-256-GCM under CREDENTIALS_KEY (packages/server/src/tenants/secret-sealing.ts). */
  sealed_secret: string;
  created_at: number;
  rotated_at: number | null;
}

export interface PendingCompaniesTable {
  company_uuid: string;
  refusals: number;
  first_seen_at: number;
  last_seen_at: number;
}

export type TenantRow = Selectable<TenantsTable>;

/** A tenant as the CLI lists it: never the Secret, sealed or not. */
export interface TenantListing {
  companyUuid: string;
  apiKey: string;
  createdAt: number;
  rotatedAt: number | null;
}

export interface PendingCompany {
  companyUuid: string;
  refusals: number;
  firstSeenAt: number;
  lastSeenAt: number;
}
