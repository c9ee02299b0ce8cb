import { Inject, Injectable } from '@nestjs/common';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { newId } from '#common';
import { isUniqueViolation, type Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { tenants, type TenantRow } from '../schema/index.js';

export interface TenantScope {
  environmentId: string;
  organizationId: string;
}

@Injectable()
export class TenantRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Returns undefined when the identifier is taken in this environment. */
  async create(
    scope: TenantScope,
    values: { identifier: string; name: string; data?: Record<string, unknown> | null },
  ): Promise<TenantRow | undefined> {
    try {
      const [row] = await this.db
        .insert(tenants)
        .values({ id: newId(), ...scope, ...values })
        .returning();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  async findByIdentifier(environmentId: string, identifier: string): Promise<TenantRow | undefined> {
    const [row] = await this.db
      .select()
      .from(tenants)
      .where(and(eq(tenants.environmentId, environmentId), eq(tenants.identifier, identifier)))
      .limit(1);
    return row;
  }

  async findByIdentifiers(environmentId: string, identifiers: string[]): Promise<TenantRow[]> {
    if (identifiers.length === 0) return [];
    return this.db
      .select()
      .from(tenants)
      .where(and(eq(tenants.environmentId, environmentId), inArray(tenants.identifier, identifiers)));
  }

  async update(
    environmentId: string,
    identifier: string,
    changes: Partial<Pick<TenantRow, 'identifier' | 'name' | 'data'>>,
  ): Promise<TenantRow | undefined> {
    const [row] = await this.db
      .update(tenants)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(tenants.environmentId, environmentId), eq(tenants.identifier, identifier)))
      .returning();
    return row;
  }

  async delete(environmentId: string, identifier: string): Promise<boolean> {
    const rows = await this.db
      .delete(tenants)
      .where(and(eq(tenants.environmentId, environmentId), eq(tenants.identifier, identifier)))
      .returning({ id: tenants.id });
    return rows.length > 0;
  }

  async list(environmentId: string, page: number, limit: number): Promise<{ rows: TenantRow[]; total: number }> {
    const where = eq(tenants.environmentId, environmentId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(tenants)
        .where(where)
        .orderBy(desc(tenants.createdAt), desc(tenants.id))
        .limit(limit)
        .offset(page * limit),
      this.db.select({ total: count() }).from(tenants).where(where),
    ]);
    return { rows, total };
  }
}
