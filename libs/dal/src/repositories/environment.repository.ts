import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { newId } from '#common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { apiKeys, environments, organizations, type Environment } from '../schema/index.js';

/** The environment's rule for inbox sessions' topic joins; a field left out keeps its value. */
export interface InboxTopicPolicyChange {
  patterns?: string[];
  perSubscriber?: number;
}

export interface ApiKeyOwner {
  apiKeyId: string;
  environmentId: string;
  organizationId: string;
}

/** Arbitrary constant naming the first-boot lock ("BOOT"). */
const FIRST_BOOT_LOCK_KEY = 0x424f4f54;

/** Random, not derived from the id: the identifier is public (it ships in browser code). */
function newEnvironmentIdentifier(): string {
  return randomBytes(12).toString('base64url');
}

async function insertOrganization(tx: DbExecutor, name: string, environmentNames: string[]): Promise<Environment[]> {
  const organizationId = newId();
  await tx.insert(organizations).values({ id: organizationId, name });
  return tx
    .insert(environments)
    .values(
      environmentNames.map((envName) => ({
        id: newId(),
        organizationId,
        name: envName,
        identifier: newEnvironmentIdentifier(),
      })),
    )
    .returning();
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

  async findEnvironmentById(id: string): Promise<Environment | undefined> {
    const [row] = await this.db.select().from(environments).where(eq(environments.id, id)).limit(1);
    return row;
  }

  /**
   * Creates the first organization unless one exists. An advisory lock serializes processes booting
   * at once on one empty database, so exactly one of them creates it (the others get undefined).
   */
  async createFirstOrganization(name: string, environmentNames: string[]): Promise<Environment[] | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_BOOT_LOCK_KEY})`);
      const existing = await tx.select({ id: organizations.id }).from(organizations).limit(1);
      if (existing.length > 0) return undefined;
      return insertOrganization(tx, name, environmentNames);
    });
  }

  async createOrganization(name: string, environmentNames: string[]): Promise<Environment[]> {
    return this.db.transaction((tx) => insertOrganization(tx, name, environmentNames));
  }

  async findEnvironmentByName(name: string, organizationId?: string): Promise<Environment | undefined> {
    const conditions = [eq(environments.name, name)];
    if (organizationId) conditions.push(eq(environments.organizationId, organizationId));
    const [row] = await this.db
      .select()
      .from(environments)
      .where(and(...conditions))
      .orderBy(environments.createdAt)
      .limit(1);
    return row;
  }

  async findEnvironmentByIdentifier(identifier: string): Promise<Environment | undefined> {
    const [row] = await this.db.select().from(environments).where(eq(environments.identifier, identifier)).limit(1);
    return row;
  }

  async setRequireHmac(environmentId: string, requireHmac: boolean): Promise<Environment | undefined> {
    const [row] = await this.db
      .update(environments)
      .set({ requireHmac, updatedAt: sql`now()` })
      .where(eq(environments.id, environmentId))
      .returning();
    return row;
  }

  async setInboxTopicPolicy(environmentId: string, change: InboxTopicPolicyChange): Promise<Environment | undefined> {
    const [row] = await this.db
      .update(environments)
      .set({
        inboxTopicPatterns: change.patterns,
        inboxTopicsPerSubscriber: change.perSubscriber,
        updatedAt: sql`now()`,
      })
      .where(eq(environments.id, environmentId))
      .returning();
    return row;
  }

  /**
   * Idempotent: an existing key hash keeps its row; it only gains the encrypted copy it lacked
   * (a key seeded by API_KEY before copies were stored gets one at the next boot).
   */
  async insertApiKey(environment: Environment, keyHash: string, prefix: string, keyEncrypted?: string): Promise<void> {
    await this.db
      .insert(apiKeys)
      .values({
        id: newId(),
        environmentId: environment.id,
        organizationId: environment.organizationId,
        keyHash,
        prefix,
        keyEncrypted: keyEncrypted ?? null,
      })
      .onConflictDoUpdate({
        target: apiKeys.keyHash,
        set: { keyEncrypted: sql`coalesce(${apiKeys.keyEncrypted}, excluded.key_encrypted)` },
      });
  }

  /** The encrypted copies of the environment's keys (keys without one are left out). */
  async listEncryptedKeys(environmentId: string): Promise<string[]> {
    const rows = await this.db
      .select({ keyEncrypted: apiKeys.keyEncrypted })
      .from(apiKeys)
      .where(and(eq(apiKeys.environmentId, environmentId), isNotNull(apiKeys.keyEncrypted)));
    return rows.map((row) => row.keyEncrypted).filter((value): value is string => value !== null);
  }
}
