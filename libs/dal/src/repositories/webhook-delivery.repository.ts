import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { newId } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { bulkInsert, checkOnly, newestFirst, uuids } from './table-sql.js';
import {
  webhookDeliveries,
  webhookEvents,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookEventRow,
} from '../schema/index.js';

export interface NewWebhookEvent {
  id: string;
  type: string;
  /** The JSON text a receiver gets. */
  body: string;
  /** The subscriber the event is about, if any (internal id). */
  subscriberId?: string;
}

type NewEventRow = typeof webhookEvents.$inferInsert;
type NewDeliveryRow = typeof webhookDeliveries.$inferInsert;

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

/** Deliveries written already leased to the writing process, whose lanes send them without a claim. */
export interface DeliveryLease {
  endpointIds: ReadonlySet<string>;
  until: Date;
}

export interface RecordedDeliveries {
  /** The endpoints that got deliveries. */
  endpointIds: string[];
  /** The deliveries written leased (see DeliveryLease), with their events. */
  leased: { delivery: WebhookDeliveryRow; event: WebhookEventRow }[];
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
   * endpoint wants are not stored. The deliveries to `lease.endpointIds` are written leased until
   * `lease.until` (as a claim would leave them): the caller's process sends them from memory once the
   * transaction committed, and they come back as the rows they are.
   */
  async record(
    executor: DbExecutor,
    environmentId: string,
    endpoints: { id: string; eventTypes: string[] }[],
    events: NewWebhookEvent[],
    now: Date,
    lease?: DeliveryLease,
  ): Promise<RecordedDeliveries> {
    const deliveries = events.flatMap((event) =>
      endpoints
        .filter((endpoint) => endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(event.type))
        .map((endpoint) => ({
          id: newId(),
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          leasedUntil: lease?.endpointIds.has(endpoint.id) ? lease.until : null,
        })),
    );
    if (deliveries.length === 0) return { endpointIds: [], leased: [] };
    const wanted = new Set(deliveries.map((delivery) => delivery.eventId));
    const eventRows: WebhookEventRow[] = events
      .filter((event) => wanted.has(event.id))
      .map(({ id, type, body, subscriberId = null }) => ({
        id,
        environmentId,
        type,
        body,
        subscriberId,
        createdAt: now,
        updatedAt: now,
      }));
    // The values every row shares (environment, times; mostly the endpoint and type too) go once.
    const shared = { environmentId, createdAt: now, updatedAt: now };
    await bulkInsert<NewEventRow>(
      executor,
      webhookEvents,
      eventRows.map(({ id, type, body, subscriberId }) => ({ id, type, body, subscriberId })),
      { shared },
    );
    await bulkInsert<NewDeliveryRow>(executor, webhookDeliveries, deliveries, {
      shared: { ...shared, nextAttemptAt: now },
    });
    const eventsById = new Map(eventRows.map((event) => [event.id, event]));
    return {
      endpointIds: [...new Set(deliveries.map((delivery) => delivery.endpointId))],
      leased: deliveries
        .filter((delivery) => delivery.leasedUntil !== null)
        .map((delivery) => ({
          delivery: {
            ...delivery,
            environmentId,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            lastStatusCode: null,
            lastDurationMs: null,
            lastError: null,
            lastAttemptAt: null,
            createdAt: now,
            updatedAt: now,
          },
          event: eventsById.get(delivery.eventId)!,
        })),
    };
  }

  /**
   * Takes the endpoint's pending deliveries that are due, oldest first, with their events: each is
   * leased until `leaseUntil`, so another process's lane skips it and, should this one die, it is due
   * again once the lease ends. Writing the results ends the lease.
   */
  async claimDue(
    environmentId: string,
    endpointId: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<{ delivery: WebhookDeliveryRow; event: WebhookEventRow }[]> {
    const due = this.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, now),
          notLeased(now),
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.environmentId, environmentId),
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt, webhookDeliveries.id)
      .limit(limit)
      .for('update', { skipLocked: true });
    const claimed = await this.db
      .update(webhookDeliveries)
      .set({ leasedUntil: leaseUntil })
      .where(inArray(webhookDeliveries.id, due))
      .returning();
    if (claimed.length === 0) return [];
    // One array parameter: the statement's text stays the same whatever the round's size (StatementNames).
    const events = await this.db
      .select()
      .from(webhookEvents)
      .where(sql`${webhookEvents.id} = ANY(${uuids(claimed.map((delivery) => delivery.eventId))})`);
    const eventsById = new Map(events.map((event) => [event.id, event]));
    return claimed
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .flatMap((delivery) => {
        const event = eventsById.get(delivery.eventId);
        return event ? [{ delivery, event }] : [];
      });
  }

  /** The endpoints the given deliveries go to (for wake-ups queued by versions that named deliveries). */
  async endpointsOf(environmentId: string, deliveryIds: string[]): Promise<string[]> {
    if (deliveryIds.length === 0) return [];
    const rows = await this.db
      .selectDistinct({ endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.environmentId, environmentId), inArray(webhookDeliveries.id, deliveryIds)));
    return rows.map((row) => row.endpointId);
  }

  /**
   * Writes the outcomes of several attempts in one statement, each only if no other run moved its
   * delivery on since it was read (still pending, same attempt count). Returns the ids written.
   */
  async recordResults(
    environmentId: string,
    outcomes: { delivery: WebhookDeliveryRow; result: AttemptResult }[],
    now: Date,
  ): Promise<string[]> {
    if (outcomes.length === 0) return [];
    const values = outcomes.map(({ delivery, result }) => ({
      id: delivery.id,
      read_attempts: delivery.attempts,
      status: result.status,
      next_attempt_at: result.nextAttemptAt?.toISOString() ?? null,
      counted: result.counted,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      error: result.error,
    }));
    const written = await this.db.execute<{ id: string }>(sql`
      UPDATE webhook_deliveries AS d SET
        status = v.status,
        next_attempt_at = v.next_attempt_at,
        leased_until = NULL,
        attempts = CASE WHEN v.counted THEN d.attempts + 1 ELSE d.attempts END,
        last_status_code = CASE WHEN v.counted THEN v.status_code ELSE d.last_status_code END,
        last_duration_ms = CASE WHEN v.counted THEN v.duration_ms ELSE d.last_duration_ms END,
        last_error = CASE WHEN v.counted THEN v.error ELSE d.last_error END,
        last_attempt_at = CASE WHEN v.counted THEN ${now} ELSE d.last_attempt_at END,
        updated_at = ${now}
      FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(
        id uuid, read_attempts int, status text, next_attempt_at timestamptz, counted boolean,
        status_code int, duration_ms int, error text)
      WHERE d.id = v.id
        AND ${checkOnly(sql`d.environment_id = ${environmentId} AND d.status = 'pending' AND d.attempts = v.read_attempts`)}
      RETURNING d.id`);
    return written.rows.map((row) => row.id);
  }

  /** Deliveries leased to a process whose lanes stopped before taking them: due at once for any lane. */
  async releaseLeases(environmentId: string, deliveryIds: string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.db
      .update(webhookDeliveries)
      .set({ leasedUntil: null })
      .where(
        and(
          eq(webhookDeliveries.environmentId, environmentId),
          eq(webhookDeliveries.status, 'pending'),
          sql`${webhookDeliveries.id} = ANY(${uuids(deliveryIds)})`,
        ),
      );
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
      .orderBy(...newestFirst(webhookDeliveries.createdAt, webhookDeliveries.id))
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
   * Endpoints holding a pending delivery due before `dueBefore`: no lane took it (its queue entry
   * was lost, or the process sending it died and its lease ended).
   */
  async overdueEndpoints(dueBefore: Date, limit: number): Promise<{ endpointId: string; environmentId: string }[]> {
    return this.db
      .selectDistinct({ endpointId: webhookDeliveries.endpointId, environmentId: webhookDeliveries.environmentId })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, dueBefore),
          notLeased(dueBefore),
        ),
      )
      .limit(limit);
  }
}

/** Not in a lane's round at `at`: never leased, or its lease has ended. */
function notLeased(at: Date): SQL | undefined {
  return or(isNull(webhookDeliveries.leasedUntil), lte(webhookDeliveries.leasedUntil, at));
}
