import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import { newId } from '#common';
import { isUniqueViolation, type Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import {
  environmentVariables,
  workflows,
  type EnvironmentVariableRow,
  type StoredVariableValue,
} from '../schema/index.js';

export interface EnvironmentVariableValues {
  key: string;
  type: string;
  isSecret: boolean;
  values: StoredVariableValue[];
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Variables belong to an organization (one key, a value per environment): every method takes the organization id. */
@Injectable()
export class EnvironmentVariableRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Undefined when the key is taken in the organization. */
  async create(organizationId: string, values: EnvironmentVariableValues): Promise<EnvironmentVariableRow | undefined> {
    try {
      const [row] = await this.db
        .insert(environmentVariables)
        .values({ id: newId(), organizationId, ...values })
        .returning();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  /** Bytes of every stored value of the organization (as stored: secrets sealed), but those of `exceptId`. */
  async storedValueBytes(organizationId: string, exceptId?: string): Promise<number> {
    const conditions: SQL[] = [eq(environmentVariables.organizationId, organizationId)];
    if (exceptId) conditions.push(ne(environmentVariables.id, exceptId));
    const [row] = await this.db
      .select({ bytes: sql<string>`coalesce(sum(octet_length(${environmentVariables.values}::text)), 0)` })
      .from(environmentVariables)
      .where(and(...conditions));
    return Number(row?.bytes ?? 0);
  }

  async findByKey(organizationId: string, key: string): Promise<EnvironmentVariableRow | undefined> {
    const [row] = await this.db
      .select()
      .from(environmentVariables)
      .where(and(eq(environmentVariables.organizationId, organizationId), eq(environmentVariables.key, key)))
      .limit(1);
    return row;
  }

  /** The organization's variables by key; `search` matches part of the key. */
  async list(organizationId: string, search?: string): Promise<EnvironmentVariableRow[]> {
    const conditions: SQL[] = [eq(environmentVariables.organizationId, organizationId)];
    if (search) conditions.push(ilike(environmentVariables.key, `%${escapeLike(search)}%`));
    return this.db
      .select()
      .from(environmentVariables)
      .where(and(...conditions))
      .orderBy(asc(environmentVariables.key));
  }

  /** Undefined when the variable is gone; `conflict` when the new key is taken. */
  async update(
    organizationId: string,
    id: string,
    changes: Partial<EnvironmentVariableValues>,
  ): Promise<EnvironmentVariableRow | 'conflict' | undefined> {
    try {
      const [row] = await this.db
        .update(environmentVariables)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(eq(environmentVariables.organizationId, organizationId), eq(environmentVariables.id, id)))
        .returning();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  async delete(organizationId: string, key: string): Promise<boolean> {
    const rows = await this.db
      .delete(environmentVariables)
      .where(and(eq(environmentVariables.organizationId, organizationId), eq(environmentVariables.key, key)))
      .returning({ id: environmentVariables.id });
    return rows.length > 0;
  }

  /**
   * The live workflows of the environment whose stored steps mention `env.KEY` (`{{ env.KEY }}`,
   * `{{env.KEY | upcase}}`): a text search of the steps' JSON, whole words only, so `env.KEY_2` is not
   * a use of `KEY`.
   */
  async workflowsUsing(environmentId: string, key: string): Promise<{ workflowId: string; name: string }[]> {
    const pattern = `env\\.${key}([^A-Za-z0-9_]|$)`;
    return this.db
      .select({ workflowId: workflows.identifier, name: workflows.name })
      .from(workflows)
      .where(
        and(
          eq(workflows.environmentId, environmentId),
          eq(workflows.deleted, false),
          sql`${workflows.steps}::text ~ ${pattern}`,
        ),
      )
      .orderBy(asc(workflows.name));
  }
}
