import { Inject, Injectable } from '@nestjs/common';
import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import { newId } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from '../schema/index.js';

export interface WebhookEndpointFields {
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  headers: Record<string, string>;
}

export type WebhookEndpointChanges = Partial<WebhookEndpointFields> & { disabledReason?: string | null };

/** An environment's webhook endpoints: every method takes the environment id. */
@Injectable()
export class WebhookEndpointRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Undefined when the environment already has `limit` endpoints. Creations of one environment take
   * turns (a transaction lock on its id), so two at once cannot both pass the count.
   */
  async create(
    tenant: { environmentId: string; organizationId: string },
    fields: WebhookEndpointFields,
    secretEncrypted: string,
    limit: number,
  ): Promise<WebhookEndpointRow | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${tenant.environmentId}))`);
      const [existing] = await tx
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.environmentId, tenant.environmentId));
      if (existing.n >= limit) return undefined;
      const [row] = await tx
        .insert(webhookEndpoints)
        .values({
          id: newId(),
          environmentId: tenant.environmentId,
          organizationId: tenant.organizationId,
          ...fields,
          secretEncrypted,
        })
        .returning();
      return row;
    });
  }

  async list(environmentId: string): Promise<WebhookEndpointRow[]> {
    return this.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.environmentId, environmentId))
      .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  }

  async find(
    environmentId: string,
    id: string,
    executor: DbExecutor = this.db,
  ): Promise<WebhookEndpointRow | undefined> {
    const [row] = await executor
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.environmentId, environmentId), eq(webhookEndpoints.id, id)))
      .limit(1);
    return row;
  }

  /** The enabled endpoints that want `types` (an endpoint with no types wants every one). */
  async subscribed(
    environmentId: string,
    types: string[],
    executor: DbExecutor = this.db,
  ): Promise<WebhookEndpointRow[]> {
    return executor
      .select()
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.environmentId, environmentId),
          eq(webhookEndpoints.enabled, true),
          sql`(cardinality(${webhookEndpoints.eventTypes}) = 0 OR ${webhookEndpoints.eventTypes} && ${sql.param(types)}::text[])`,
        ),
      );
  }

  async update(
    environmentId: string,
    id: string,
    changes: WebhookEndpointChanges & { failingSince?: Date | null },
  ): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db
      .update(webhookEndpoints)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(webhookEndpoints.environmentId, environmentId), eq(webhookEndpoints.id, id)))
      .returning();
    return row;
  }

  async rotateSecret(
    environmentId: string,
    id: string,
    secretEncrypted: string,
    previousSecretExpiresAt: Date,
  ): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db
      .update(webhookEndpoints)
      .set({
        previousSecretEncrypted: sql`${webhookEndpoints.secretEncrypted}`,
        previousSecretExpiresAt,
        secretEncrypted,
        updatedAt: new Date(),
      })
      .where(and(eq(webhookEndpoints.environmentId, environmentId), eq(webhookEndpoints.id, id)))
      .returning();
    return row;
  }

  /** The endpoint and its deliveries go together; false when there was none. */
  async delete(environmentId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .delete(webhookEndpoints)
        .where(and(eq(webhookEndpoints.environmentId, environmentId), eq(webhookEndpoints.id, id)))
        .returning({ id: webhookEndpoints.id });
      if (rows.length === 0) return false;
      await tx
        .delete(webhookDeliveries)
        .where(and(eq(webhookDeliveries.environmentId, environmentId), eq(webhookDeliveries.endpointId, id)));
      return true;
    });
  }

  /**
   * The outcome of an attempt on the endpoint's failure run: a success ends it, a failure starts it
   * (or keeps its start). Returns the run's start, null after a success.
   */
  async recordAttempt(environmentId: string, id: string, succeeded: boolean, now: Date): Promise<Date | null> {
    const endpoint = and(eq(webhookEndpoints.environmentId, environmentId), eq(webhookEndpoints.id, id));
    if (succeeded) {
      // Most attempts succeed on an endpoint that is not failing: they write nothing.
      await this.db
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(endpoint, isNotNull(webhookEndpoints.failingSince)));
      return null;
    }
    const [row] = await this.db
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)` })
      .where(endpoint)
      .returning({ failingSince: webhookEndpoints.failingSince });
    return row?.failingSince ?? null;
  }

  /** Turned off by the service; only an endpoint still enabled is changed. */
  async disable(environmentId: string, id: string, reason: string): Promise<boolean> {
    const rows = await this.db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
      .where(
        and(
          eq(webhookEndpoints.environmentId, environmentId),
          eq(webhookEndpoints.id, id),
          eq(webhookEndpoints.enabled, true),
        ),
      )
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  }
}
