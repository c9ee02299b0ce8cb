import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, lt } from 'drizzle-orm';
import { newId } from '#common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { idempotencyKeys, type IdempotencyKeyRow } from '../schema/index.js';

export interface IdempotencyScope {
  environmentId: string;
  organizationId: string;
}

/** Idempotency-Key records: claimed in flight by the first request, completed with its response. */
@Injectable()
export class IdempotencyRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Claims the key for this request. Returns undefined when this request owns it now (new key, or
   * an expired one taken over), otherwise the existing record.
   */
  async claim(
    scope: IdempotencyScope,
    key: string,
    requestHash: string,
    now: Date,
    ttlSeconds: number,
  ): Promise<IdempotencyKeyRow | undefined> {
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    const inserted = await this.db
      .insert(idempotencyKeys)
      .values({ id: newId(), ...scope, key, requestHash, state: 'in_flight', expiresAt })
      .onConflictDoNothing({ target: [idempotencyKeys.environmentId, idempotencyKeys.key] })
      .returning({ id: idempotencyKeys.id });
    if (inserted.length > 0) return undefined;
    const takenOver = await this.db
      .update(idempotencyKeys)
      .set({ requestHash, state: 'in_flight', responseStatus: null, responseBody: null, expiresAt, updatedAt: now })
      .where(
        and(
          eq(idempotencyKeys.environmentId, scope.environmentId),
          eq(idempotencyKeys.key, key),
          lt(idempotencyKeys.expiresAt, now),
        ),
      )
      .returning({ id: idempotencyKeys.id });
    if (takenOver.length > 0) return undefined;
    const [existing] = await this.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.environmentId, scope.environmentId), eq(idempotencyKeys.key, key)))
      .limit(1);
    return existing;
  }

  async complete(environmentId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.db
      .update(idempotencyKeys)
      .set({ state: 'done', responseStatus: status, responseBody: body ?? null, updatedAt: new Date() })
      .where(and(eq(idempotencyKeys.environmentId, environmentId), eq(idempotencyKeys.key, key)));
  }

  /** A failed first request releases its key, so the client's retry runs again. */
  async release(environmentId: string, key: string): Promise<void> {
    await this.db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.environmentId, environmentId), eq(idempotencyKeys.key, key)));
  }

  /** Deletes up to `limit` expired records (oldest first); returns how many went. */
  async deleteExpired(now: Date, limit: number): Promise<number> {
    const expired = this.db
      .select({ id: idempotencyKeys.id })
      .from(idempotencyKeys)
      .where(lt(idempotencyKeys.expiresAt, now))
      .orderBy(idempotencyKeys.expiresAt)
      .limit(limit);
    const deleted = await this.db
      .delete(idempotencyKeys)
      .where(inArray(idempotencyKeys.id, expired))
      .returning({ id: idempotencyKeys.id });
    return deleted.length;
  }
}
