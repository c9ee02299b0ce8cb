import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, inArray, lt, lte, or } from 'drizzle-orm';
import { newId } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import {
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookEventRow,
} from '../schema/index.js';

export interface NewWebhookEvent {
  id: string;
  type: string;
  body: Record<string, unknown>;
  /** The subscriber the event is about, if any (internal id). */
  subscriberId?: string;
}

/** A delivery with what sending it needs. */
export interface WebhookSend {
  delivery: WebhookDeliveryRow;
  event: WebhookEventRow;
  endpoint: WebhookEndpointRow;
}

export interface AttemptResult {
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  nextAttemptAt: Date | null;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  /** Whether the attempt counts (a delivery put back unsent because its endpoint is failing does not). */
  counted: boolean;
}

export interface DeliveryPage {
  rows: WebhookDeliveryRow[];
  hasMore: boolean;
}

/** Webhook events (the outbox) and their deliveries to endpoints: every method takes the environment id. */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Stores the events and one pending delivery per (event, endpoint that wants it), in the caller's
   * transaction: the events commit with the change that caused them, or not at all. Events no
   * endpoint wants are not stored. Returns the new deliveries' ids.
   */
  async record(
    executor: DbExecutor,
    environmentId: string,
    endpoints: { id: string; eventTypes: string[] }[],
    events: NewWebhookEvent[],
    now: Date,
  ): Promise<string[]> {
    const deliveries = events.flatMap((event) =>
      endpoints
        .filter((endpoint) => endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(event.type))
        .map((endpoint) => ({
          id: newId(),
          environmentId,
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          nextAttemptAt: now,
        })),
    );
    if (deliveries.length === 0) return [];
    const wanted = new Set(deliveries.map((delivery) => delivery.eventId));
    await executor
      .insert(webhookEvents)
      .values(
        events.filter((event) => wanted.has(event.id)).map((event) => ({ ...event, environmentId, createdAt: now })),
      );
    await executor.insert(webhookDeliveries).values(deliveries.map((delivery) => ({ ...delivery, createdAt: now })));
    return deliveries.map((delivery) => delivery.id);
  }

  /** Pending deliveries with their event and endpoint, in creation order. */
  async forSending(environmentId: string, ids: string[]): Promise<WebhookSend[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ delivery: webhookDeliveries, event: webhookEvents, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(
        and(
          eq(webhookDeliveries.environmentId, environmentId),
          inArray(webhookDeliveries.id, ids),
          eq(webhookDeliveries.status, 'pending'),
        ),
      )
      .orderBy(webhookDeliveries.createdAt, webhookDeliveries.id);
    return rows;
  }

  /** Writes an attempt's outcome unless another run already moved the delivery on. */
  async recordResult(
    environmentId: string,
    delivery: WebhookDeliveryRow,
    result: AttemptResult,
    now: Date,
  ): Promise<boolean> {
    const rows = await this.db
      .update(webhookDeliveries)
      .set({
        status: result.status,
        nextAttemptAt: result.nextAttemptAt,
        attempts: result.counted ? delivery.attempts + 1 : delivery.attempts,
        ...(result.counted
          ? {
              lastStatusCode: result.statusCode,
              lastDurationMs: result.durationMs,
              lastError: result.error,
              lastAttemptAt: now,
            }
          : {}),
        updatedAt: now,
      })
      .where(
        and(
          eq(webhookDeliveries.environmentId, environmentId),
          eq(webhookDeliveries.id, delivery.id),
          eq(webhookDeliveries.status, 'pending'),
          eq(webhookDeliveries.attempts, delivery.attempts),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    return rows.length > 0;
  }

  /** An endpoint turned off: what it still had pending will not be sent. */
  async cancelPending(environmentId: string, endpointId: string, now: Date): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({ status: 'canceled', nextAttemptAt: null, updatedAt: now })
      .where(
        and(
          eq(webhookDeliveries.environmentId, environmentId),
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.status, 'pending'),
        ),
      );
  }

  /** Newest first, keyset by (createdAt, id) of the last row seen. */
  async list(environmentId: string, endpointId: string, limit: number, after?: string): Promise<DeliveryPage> {
    const conditions = [
      eq(webhookDeliveries.environmentId, environmentId),
      eq(webhookDeliveries.endpointId, endpointId),
    ];
    if (after) {
      const [cursor] = await this.db
        .select({ createdAt: webhookDeliveries.createdAt, id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.environmentId, environmentId), eq(webhookDeliveries.id, after)));
      if (cursor) {
        const earlier = or(
          lt(webhookDeliveries.createdAt, cursor.createdAt),
          and(eq(webhookDeliveries.createdAt, cursor.createdAt), lt(webhookDeliveries.id, cursor.id)),
        );
        if (earlier) conditions.push(earlier);
      }
    }
    const rows = await this.db
      .select()
      .from(webhookDeliveries)
      .where(and(...conditions))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit + 1);
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  async find(environmentId: string, endpointId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await this.db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.environmentId, environmentId),
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.id, id),
        ),
      );
    return row;
  }

  /** A new pending delivery of the same event to the same endpoint (same webhook-id), due now. */
  async replay(delivery: WebhookDeliveryRow, now: Date): Promise<WebhookDeliveryRow> {
    const [row] = await this.db
      .insert(webhookDeliveries)
      .values({
        id: newId(),
        environmentId: delivery.environmentId,
        endpointId: delivery.endpointId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row;
  }

  /**
   * Pending deliveries due before `dueBefore` (their queue entry lost), oldest first, moved to
   * `retryAt` as they are taken so that sweepers running at once never take the same one.
   */
  async takeOverdue(dueBefore: Date, retryAt: Date, limit: number): Promise<{ id: string; environmentId: string }[]> {
    const overdue = this.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, dueBefore)))
      .orderBy(webhookDeliveries.nextAttemptAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    return this.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: retryAt })
      .where(inArray(webhookDeliveries.id, overdue))
      .returning({ id: webhookDeliveries.id, environmentId: webhookDeliveries.environmentId });
  }
}
