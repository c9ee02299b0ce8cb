import { Inject, Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { newId } from '#common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { apiKeys, environments, organizations, type Environment } from '../schema/index.js';

export interface ApiKeyOwner {
  apiKeyId: string;
  environmentId: string;
  organizationId: string;
}

/** Organizations, environments and API keys: the tenancy every other row hangs off. */
@Injectable()
export class EnvironmentRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findOwnerOfKeyHash(keyHash: string): Promise<ApiKeyOwner | undefined> {
    const [row] = await this.db
      .select({ apiKeyId: apiKeys.id, environmentId: apiKeys.environmentId, organizationId: apiKeys.organizationId })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, keyHash))
      .limit(1);
    return row;
  }

  async countOrganizations(): Promise<number> {
    const rows = await this.db.select({ id: organizations.id }).from(organizations).limit(1);
    return rows.length;
  }

  async createOrganization(name: string, environmentNames: string[]): Promise<Environment[]> {
    return this.db.transaction(async (tx) => {
      const organizationId = newId();
      await tx.insert(organizations).values({ id: organizationId, name });
      return tx
        .insert(environments)
        .values(environmentNames.map((envName) => ({ id: newId(), organizationId, name: envName })))
        .returning();
    });
  }

  async findEnvironmentByName(name: string, organizationId?: string): Promise<Environment | undefined> {
    const conditions = [eq(environments.name, name)];
    if (organizationId) conditions.push(eq(environments.organizationId, organizationId));
    const [row] = await this.db.select().from(environments).where(and(...conditions)).orderBy(environments.createdAt).limit(1);
    return row;
  }

  async findEnvironmentById(id: string): Promise<Environment | undefined> {
    const [row] = await this.db.select().from(environments).where(eq(environments.id, id)).limit(1);
    return row;
  }

  async listEnvironmentsOfOrganization(organizationId: string): Promise<Environment[]> {
    return this.db.select().from(environments).where(eq(environments.organizationId, organizationId));
  }

  /** Idempotent: an existing key hash is left as it is. */
  async insertApiKey(environment: Environment, keyHash: string, prefix: string): Promise<void> {
    await this.db
      .insert(apiKeys)
      .values({ id: newId(), environmentId: environment.id, organizationId: environment.organizationId, keyHash, prefix })
      .onConflictDoNothing({ target: apiKeys.keyHash });
  }
}
