import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { newId } from '#common';
import { isUniqueViolation, type Database, type DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { apiKeys, environments, organizations, type Environment } from '../schema/index.js';

/** The environment's rule for inbox sessions' topic joins; a field left out keeps its value. */
export interface InboxTopicPolicyChange {
  patterns?: string[];
  perSubscriber?: number;
}

/** An environment's retention overrides: a number sets it, null goes back to the deployment's default. */
export interface RetentionOverrides {
  activityDays?: number | null;
  messagesDays?: number | null;
}

/** What the retention needs of every environment: its id and its overrides (null: the default). */
export type EnvironmentRetention = Pick<Environment, 'id' | 'retentionActivityDays' | 'retentionMessagesDays'>;

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

/** Development's parent is Production (as migration 0019 sets it for existing organizations). */
async function insertOrganization(tx: DbExecutor, name: string, environmentNames: string[]): Promise<Environment[]> {
  const organizationId = newId();
  await tx.insert(organizations).values({ id: organizationId, name });
  const ids = new Map(environmentNames.map((envName) => [envName, newId()]));
  return tx
    .insert(environments)
    .values(
      environmentNames.map((envName) => ({
        id: ids.get(envName)!,
        organizationId,
        name: envName,
        identifier: newEnvironmentIdentifier(),
        parentId: envName === 'Development' ? (ids.get('Production') ?? null) : null,
      })),
    )
    .returning();
}

/** A new environment's first API key, as stored (never the raw key). */
export interface NewApiKey {
  keyHash: string;
  prefix: string;
  keyEncrypted: string;
}

export interface EnvironmentChanges {
  name?: string;
  identifier?: string;
  color?: string;
  parentId?: string;
  retentionActivityDays?: number | null;
  retentionMessagesDays?: number | null;
  defaultLocale?: string;
  requireHmac?: boolean;
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

  /** The organization of a single-team deployment: the one first boot made. */
  async findFirstOrganizationId(): Promise<string | undefined> {
    const [row] = await this.db
      .select({ id: organizations.id })
      .from(organizations)
      .orderBy(asc(organizations.createdAt), asc(organizations.id))
      .limit(1);
    return row?.id;
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

  /** A field left out keeps its value. */
  async setRetention(environmentId: string, overrides: RetentionOverrides): Promise<Environment | undefined> {
    const [row] = await this.db
      .update(environments)
      .set({
        retentionActivityDays: overrides.activityDays,
        retentionMessagesDays: overrides.messagesDays,
        updatedAt: sql`now()`,
      })
      .where(eq(environments.id, environmentId))
      .returning();
    return row;
  }

  /** Every environment of the deployment, for the retention (a few rows: environments are few). */
  async listRetention(): Promise<EnvironmentRetention[]> {
    return this.db
      .select({
        id: environments.id,
        retentionActivityDays: environments.retentionActivityDays,
        retentionMessagesDays: environments.retentionMessagesDays,
      })
      .from(environments)
      .orderBy(asc(environments.id));
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

  /** The organization's environments, oldest first. */
  async listOrganizationEnvironments(organizationId: string): Promise<Environment[]> {
    return this.db
      .select()
      .from(environments)
      .where(eq(environments.organizationId, organizationId))
      .orderBy(asc(environments.createdAt), asc(environments.id));
  }

  /** The environment when it belongs to the organization: another organization's id reads as unknown. */
  async findOrganizationEnvironment(organizationId: string, id: string): Promise<Environment | undefined> {
    const [row] = await this.db
      .select()
      .from(environments)
      .where(and(eq(environments.organizationId, organizationId), eq(environments.id, id)))
      .limit(1);
    return row;
  }

  /** The environment and its first key in one transaction; undefined when the name is taken in the organization. */
  async createEnvironment(
    organizationId: string,
    values: { name: string; color?: string; parentId?: string },
    key: NewApiKey,
  ): Promise<Environment | undefined> {
    try {
      return await this.db.transaction(async (tx) => {
        const [environment] = await tx
          .insert(environments)
          .values({
            id: newId(),
            organizationId,
            name: values.name,
            identifier: newEnvironmentIdentifier(),
            color: values.color ?? null,
            parentId: values.parentId ?? null,
          })
          .returning();
        await tx.insert(apiKeys).values({ id: newId(), environmentId: environment.id, organizationId, ...key });
        return environment;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  /** A taken name or identifier surfaces as the driver's unique violation (see isUniqueViolation). */
  async updateEnvironment(
    organizationId: string,
    id: string,
    changes: EnvironmentChanges,
  ): Promise<Environment | undefined> {
    const [row] = await this.db
      .update(environments)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(and(eq(environments.organizationId, organizationId), eq(environments.id, id)))
      .returning();
    return row;
  }

  /**
   * Removes the environment and its keys in one transaction (false when the organization has no such
   * environment); environments whose parent it was lose their parent. Its other rows are left as they are.
   */
  async deleteEnvironment(organizationId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [environment] = await tx
        .select({ id: environments.id })
        .from(environments)
        .where(and(eq(environments.organizationId, organizationId), eq(environments.id, id)))
        .for('update')
        .limit(1);
      if (!environment) return false;
      await tx.delete(apiKeys).where(eq(apiKeys.environmentId, id));
      await tx
        .update(environments)
        .set({ parentId: null, updatedAt: sql`now()` })
        .where(and(eq(environments.organizationId, organizationId), eq(environments.parentId, id)));
      await tx.delete(environments).where(eq(environments.id, id));
      return true;
    });
  }

  /** The encrypted copies of the environment's keys (keys without one are left out). */
  async listEncryptedKeys(environmentId: string): Promise<{ id: string; keyEncrypted: string }[]> {
    const rows = await this.db
      .select({ id: apiKeys.id, keyEncrypted: apiKeys.keyEncrypted })
      .from(apiKeys)
      .where(and(eq(apiKeys.environmentId, environmentId), isNotNull(apiKeys.keyEncrypted)));
    return rows.flatMap(({ id, keyEncrypted }) => (keyEncrypted === null ? [] : [{ id, keyEncrypted }]));
  }
}
