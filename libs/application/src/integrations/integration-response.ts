import type { IntegrationRow } from '#dal';

/** The spec's Integration, with the credentials already decrypted by the caller. */
export interface IntegrationResponse {
  _id: string;
  _environmentId: string;
  _organizationId: string;
  name: string;
  identifier: string;
  providerId: string;
  channel: string;
  credentials: Record<string, unknown>;
  configurations: Record<string, unknown>;
  active: boolean;
  deleted: boolean;
  /** Present once deleted (Novu's clients accept the field absent, not null). */
  deletedAt?: string;
  deletedBy?: string;
  primary: boolean;
  priority: number;
  conditions: unknown[];
  createdAt: string;
  updatedAt: string;
}

export function toIntegrationResponse(row: IntegrationRow, credentials: Record<string, unknown>): IntegrationResponse {
  return {
    _id: row.id,
    _environmentId: row.environmentId,
    _organizationId: row.organizationId,
    name: row.name,
    identifier: row.identifier,
    providerId: row.providerId,
    channel: row.channel,
    credentials,
    configurations: row.configurations,
    active: row.active,
    deleted: row.deleted,
    ...(row.deletedAt ? { deletedAt: row.deletedAt.toISOString() } : {}),
    ...(row.deletedBy ? { deletedBy: row.deletedBy } : {}),
    primary: row.primary,
    priority: row.priority,
    conditions: row.conditions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
