import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { TriggerEventStatus } from '#common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { triggerEvents, type TriggerEventRow } from '../schema/index.js';

export type NewTriggerEventRow = typeof triggerEvents.$inferInsert;

/** The accepted triggers: dedup by (environment, transactionId) and the outbox the fan-out reads. */
@Injectable()
export class TriggerEventRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** One multi-row insert; rows whose transactionId already exists are not inserted and not returned. */
  async insertMany(rows: NewTriggerEventRow[]): Promise<TriggerEventRow[]> {
    if (rows.length === 0) return [];
    return this.db
      .insert(triggerEvents)
      .values(rows)
      .onConflictDoNothing({ target: [triggerEvents.environmentId, triggerEvents.transactionId] })
      .returning();
  }

  async findById(environmentId: string, id: string): Promise<TriggerEventRow | undefined> {
    const [row] = await this.db
      .select()
      .from(triggerEvents)
      .where(and(eq(triggerEvents.environmentId, environmentId), eq(triggerEvents.id, id)))
      .limit(1);
    return row;
  }

  async findByTransactionIds(environmentId: string, transactionIds: string[]): Promise<TriggerEventRow[]> {
    if (transactionIds.length === 0) return [];
    return this.db
      .select()
      .from(triggerEvents)
      .where(and(eq(triggerEvents.environmentId, environmentId), inArray(triggerEvents.transactionId, transactionIds)));
  }

  async setStatus(environmentId: string, id: string, status: TriggerEventStatus, error: string | null = null): Promise<void> {
    await this.db
      .update(triggerEvents)
      .set({ status, error, updatedAt: new Date() })
      .where(and(eq(triggerEvents.environmentId, environmentId), eq(triggerEvents.id, id)));
  }

  /**
   * System-wide (the recovery sweeper has no environment): events still `received` since before
   * `olderThan`, i.e. whose fan-out entry was probably lost. Touches them so the next sweep waits again.
   */
  async claimStaleReceived(olderThan: Date, limit: number): Promise<Pick<TriggerEventRow, 'id' | 'environmentId'>[]> {
    const stale = await this.db
      .select({ id: triggerEvents.id })
      .from(triggerEvents)
      .where(and(eq(triggerEvents.status, 'received'), lt(triggerEvents.updatedAt, olderThan)))
      .orderBy(asc(triggerEvents.updatedAt))
      .limit(limit);
    if (stale.length === 0) return [];
    return this.db
      .update(triggerEvents)
      .set({ updatedAt: new Date() })
      .where(and(inArray(triggerEvents.id, stale.map((row) => row.id)), eq(triggerEvents.status, 'received')))
      .returning({ id: triggerEvents.id, environmentId: triggerEvents.environmentId });
  }
}
