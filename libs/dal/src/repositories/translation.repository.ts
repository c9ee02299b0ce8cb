import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, sql } from 'drizzle-orm';
import { newId } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import {
  translations,
  type TranslationContent,
  type TranslationResourceType,
  type TranslationRow,
} from '../schema/index.js';

export interface TranslationScope {
  environmentId: string;
  organizationId: string;
}

/** A workflow or a layout, by the key it shares across environments. */
export interface TranslationResource {
  resourceType: TranslationResourceType;
  resourceId: string;
}

/** One locale's content of one resource, as written. */
export interface TranslationValues extends TranslationResource {
  locale: string;
  content: TranslationContent;
}

const ofResource = (environmentId: string, resource: TranslationResource) =>
  and(
    eq(translations.environmentId, environmentId),
    eq(translations.resourceType, resource.resourceType),
    eq(translations.resourceId, resource.resourceId),
  );

/** Writes the given locales in one statement: each replaces the stored content of its (resource, locale). */
export async function upsertTranslations(
  executor: DbExecutor,
  scope: TranslationScope,
  values: TranslationValues[],
): Promise<TranslationRow[]> {
  if (values.length === 0) return [];
  return executor
    .insert(translations)
    .values(values.map((value) => ({ id: newId(), ...scope, ...value })))
    .onConflictDoUpdate({
      target: [translations.environmentId, translations.resourceType, translations.resourceId, translations.locale],
      set: { content: sql`excluded.content`, updatedAt: sql`now()` },
    })
    .returning();
}

/** Removes every locale of a resource. */
export async function deleteResourceTranslations(
  executor: DbExecutor,
  environmentId: string,
  resource: TranslationResource,
): Promise<number> {
  const rows = await executor
    .delete(translations)
    .where(ofResource(environmentId, resource))
    .returning({ id: translations.id });
  return rows.length;
}

/** What an environment may hold after a write; a write past either bound is rolled back. */
export interface TranslationBounds {
  environmentBytes: number;
  localesPerResource: number;
}

export type BoundedWrite = { rows: TranslationRow[] } | { exceeded: 'environmentBytes' | 'localesPerResource' };

class BoundExceeded extends Error {
  constructor(readonly bound: 'environmentBytes' | 'localesPerResource') {
    super(bound);
  }
}

@Injectable()
export class TranslationRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Writes every value or none, in one transaction that measures the environment afterwards: past a
   * bound, nothing is written and the bound is named.
   */
  async upsertBounded(
    scope: TranslationScope,
    values: TranslationValues[],
    bounds: TranslationBounds,
  ): Promise<BoundedWrite> {
    try {
      return await this.db.transaction(async (tx) => {
        const rows = await upsertTranslations(tx, scope, values);
        const [usage] = await tx
          .select({
            bytes: sql<number>`coalesce(sum(octet_length(${translations.content}::text)), 0)::bigint`,
            locales: sql<number>`coalesce(max(locale_count), 0)::int`,
          })
          .from(
            tx
              .select({
                content: translations.content,
                locale_count:
                  sql<number>`count(*) over (partition by ${translations.resourceType}, ${translations.resourceId})`.as(
                    'locale_count',
                  ),
              })
              .from(translations)
              .where(eq(translations.environmentId, scope.environmentId))
              .as('translations'),
          );
        if (Number(usage.bytes) > bounds.environmentBytes) throw new BoundExceeded('environmentBytes');
        if (usage.locales > bounds.localesPerResource) throw new BoundExceeded('localesPerResource');
        return { rows };
      });
    } catch (error) {
      if (error instanceof BoundExceeded) return { exceeded: error.bound };
      throw error;
    }
  }

  async find(
    environmentId: string,
    resource: TranslationResource,
    locale: string,
  ): Promise<TranslationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(translations)
      .where(and(ofResource(environmentId, resource), eq(translations.locale, locale)))
      .limit(1);
    return row;
  }

  /** The locales of one resource, by locale. */
  listOfResource(environmentId: string, resource: TranslationResource): Promise<TranslationRow[]> {
    return this.db
      .select()
      .from(translations)
      .where(ofResource(environmentId, resource))
      .orderBy(asc(translations.locale));
  }

  /** Every translation of the environment (the render cache and the master JSON read them all). */
  listAll(environmentId: string): Promise<TranslationRow[]> {
    return this.db
      .select()
      .from(translations)
      .where(eq(translations.environmentId, environmentId))
      .orderBy(asc(translations.resourceType), asc(translations.resourceId), asc(translations.locale));
  }

  async delete(environmentId: string, resource: TranslationResource, locale: string): Promise<boolean> {
    const rows = await this.db
      .delete(translations)
      .where(and(ofResource(environmentId, resource), eq(translations.locale, locale)))
      .returning({ id: translations.id });
    return rows.length > 0;
  }

  deleteResource(environmentId: string, resource: TranslationResource): Promise<number> {
    return deleteResourceTranslations(this.db, environmentId, resource);
  }
}
