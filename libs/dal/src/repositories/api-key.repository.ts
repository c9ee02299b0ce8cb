import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq } from 'drizzle-orm';
import { newId } from '#common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { apiKeys } from '../schema/index.js';
import type { NewApiKey } from './environment.repository.js';

/** What may be shown of a stored key: never its hash nor its encrypted copy. */
export interface ApiKeySummary {
  id: string;
  environmentId: string;
  prefix: string;
  createdAt: Date;
}

const SUMMARY = {
  id: apiKeys.id,
  environmentId: apiKeys.environmentId,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
};

/** An environment's API keys, as the operator manages them; every method names the environment. */
@Injectable()
export class ApiKeyRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async list(environmentId: string): Promise<ApiKeySummary[]> {
    return this.db
      .select(SUMMARY)
      .from(apiKeys)
      .where(eq(apiKeys.environmentId, environmentId))
      .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  }

  async create(environment: { id: string; organizationId: string }, key: NewApiKey): Promise<ApiKeySummary> {
    const [row] = await this.db
      .insert(apiKeys)
      .values({ id: newId(), environmentId: environment.id, organizationId: environment.organizationId, ...key })
      .returning(SUMMARY);
    return row;
  }

  /** False when the environment has no such key (another environment's id included). */
  async delete(environmentId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(apiKeys)
      .where(and(eq(apiKeys.environmentId, environmentId), eq(apiKeys.id, id)))
      .returning({ id: apiKeys.id });
    return deleted.length > 0;
  }
}
