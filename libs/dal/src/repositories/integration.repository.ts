import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import { newId } from '#common';
import { isUniqueViolation, type Database, type DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { integrations, type IntegrationRow } from '../schema/index.js';

export interface IntegrationScope {
  environmentId: string;
  organizationId: string;
}

export interface NewIntegration {
  identifier: string;
  name: string;
  providerId: string;
  channel: string;
  /** Already encrypted: the repository never sees plaintext credentials. */
  credentials: string;
  configurations: Record<string, unknown>;
  active: boolean;
  conditions: unknown[];
}

export type IntegrationChanges = Partial<
  Pick<IntegrationRow, 'name' | 'identifier' | 'credentials' | 'configurations' | 'active' | 'conditions'>
>;

/** Only these channels route through a primary integration (BEHAVIOR §4); others get one only on request. */
const CHANNELS_WITH_AUTOMATIC_PRIMARY = new Set(['email', 'sms']);
const PRIMARY_INDEX = 'integrations_env_channel_primary_uq';
const MAX_PRIMARY_RACE_RETRIES = 3;

function violatedConstraint(error: unknown): string | undefined {
  const candidate = error as { constraint?: string; cause?: { constraint?: string } };
  return candidate?.constraint ?? candidate?.cause?.constraint;
}

const hasConditions = (conditions: unknown[] | undefined) => Array.isArray(conditions) && conditions.length > 0;

const live = (environmentId: string) =>
  and(eq(integrations.environmentId, environmentId), eq(integrations.deleted, false));
function byFailoverOrder(a: IntegrationRow, b: IntegrationRow): number {
  return (
    Number(b.primary) - Number(a.primary) ||
    b.priority - a.priority ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    a.id.localeCompare(b.id)
  );
}

const failoverOrder = [
  desc(integrations.primary),
  desc(integrations.priority),
  asc(integrations.createdAt),
  asc(integrations.id),
];

@Injectable()
export class IntegrationRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async findById(environmentId: string, id: string): Promise<IntegrationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(integrations)
      .where(and(live(environmentId), eq(integrations.id, id)))
      .limit(1);
    return row;
  }

  async listByEnvironment(environmentId: string): Promise<IntegrationRow[]> {
    return this.db
      .select()
      .from(integrations)
      .where(live(environmentId))
      .orderBy(asc(integrations.channel), ...failoverOrder);
  }

  /** Primary first, then by priority, then oldest: the order delivery fails over in. */
  async listActiveByChannel(environmentId: string, channel: string): Promise<IntegrationRow[]> {
    return this.db
      .select()
      .from(integrations)
      .where(and(live(environmentId), eq(integrations.channel, channel), eq(integrations.active, true)))
      .orderBy(...failoverOrder);
  }

  /** The newest active integration of a provider (and identifier, when given). */
  async findActiveByProvider(
    environmentId: string,
    providerId: string,
    identifier?: string,
  ): Promise<IntegrationRow | undefined> {
    const conditions = [live(environmentId), eq(integrations.providerId, providerId), eq(integrations.active, true)];
    if (identifier !== undefined) conditions.push(eq(integrations.identifier, identifier));
    const [row] = await this.db
      .select()
      .from(integrations)
      .where(and(...conditions))
      .orderBy(desc(integrations.createdAt), desc(integrations.id))
      .limit(1);
    return row;
  }

  async listActiveInOrganization(organizationId: string): Promise<IntegrationRow[]> {
    return this.db
      .select()
      .from(integrations)
      .where(
        and(
          eq(integrations.organizationId, organizationId),
          eq(integrations.active, true),
          eq(integrations.deleted, false),
        ),
      )
      .orderBy(asc(integrations.environmentId), asc(integrations.channel), ...failoverOrder);
  }

  /**
   * Inserts and, for email/sms, makes it primary when the channel has none. Returns undefined when the
   * identifier is taken. Two first integrations created at once race on the primary index: the loser
   * retries and then finds the winner's row.
   */
  async create(scope: IntegrationScope, values: NewIntegration): Promise<IntegrationRow | undefined> {
    try {
      return await this.retryPrimaryRace(() =>
        this.db.transaction(async (tx) => {
          const [row] = await tx
            .insert(integrations)
            .values({ id: newId(), ...scope, ...values })
            .returning();
          return (await this.ensurePrimary(tx, scope.environmentId, row.channel, row.id)) ?? row;
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error) && violatedConstraint(error) !== PRIMARY_INDEX) return undefined;
      throw error;
    }
  }

  /**
   * Partial update; deactivating the primary, or giving it conditions (a conditioned integration is
   * never primary), hands the role to the next active integration.
   */
  async update(environmentId: string, id: string, changes: IntegrationChanges): Promise<IntegrationRow | undefined> {
    return this.retryPrimaryRace(() =>
      this.db.transaction(async (tx) => {
        const [current] = await this.lockChannelOf(tx, environmentId, id);
        if (!current) return undefined;
        const demote = current.primary && (changes.active === false || hasConditions(changes.conditions));
        const [row] = await tx
          .update(integrations)
          .set({ ...changes, ...(demote ? { primary: false } : {}), updatedAt: new Date() })
          .where(eq(integrations.id, id))
          .returning();
        return (await this.ensurePrimary(tx, environmentId, row.channel, row.id)) ?? row;
      }),
    );
  }

  async softDelete(
    environmentId: string,
    id: string,
    deletedBy: string,
    now: Date,
  ): Promise<IntegrationRow | undefined> {
    return this.retryPrimaryRace(() =>
      this.db.transaction(async (tx) => {
        const [current] = await this.lockChannelOf(tx, environmentId, id);
        if (!current) return undefined;
        const [row] = await tx
          .update(integrations)
          .set({ deleted: true, deletedAt: now, deletedBy, primary: false, updatedAt: now })
          .where(eq(integrations.id, id))
          .returning();
        await this.ensurePrimary(tx, environmentId, row.channel);
        return row;
      }),
    );
  }

  /**
   * Makes the integration the only primary of its environment and channel, in one transaction. The
   * channel's rows are locked first, so concurrent calls run one after the other and the last one wins.
   */
  async setPrimary(environmentId: string, id: string): Promise<IntegrationRow | undefined> {
    return this.retryPrimaryRace(() =>
      this.db.transaction(async (tx) => {
        const channelRows = await this.lockChannelOf(tx, environmentId, id);
        const target = channelRows.find((row) => row.id === id);
        if (!target) return undefined;
        if (target.primary && target.active) return target;
        await tx
          .update(integrations)
          .set({ primary: false, updatedAt: new Date() })
          .where(
            and(
              live(environmentId),
              eq(integrations.channel, target.channel),
              eq(integrations.primary, true),
              ne(integrations.id, id),
            ),
          );
        // Failover order afterwards: the new primary first, then the other active ones in their old order.
        const others = channelRows.filter((row) => row.active && row.id !== id);
        const ranked = [target, ...others];
        const priorities = ranked.map((row, index) => sql`(${row.id}::uuid, ${ranked.length - index}::int)`);
        await tx.execute(sql`
          UPDATE ${integrations} SET priority = ranks.priority
          FROM (VALUES ${sql.join(priorities, sql`, `)}) AS ranks(id, priority)
          WHERE ${integrations.id} = ranks.id`);
        const [row] = await tx
          .update(integrations)
          // A primary serves every message: conditions that would narrow it are dropped.
          .set({ primary: true, active: true, conditions: [], updatedAt: new Date() })
          .where(eq(integrations.id, id))
          .returning();
        return row;
      }),
    );
  }

  /**
   * The channel lock covers existing rows only: a create racing with another create or a set-primary can
   * still hit the one-primary index. The loser runs again and then sees the winner's committed row.
   */
  private async retryPrimaryRace<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (
          !isUniqueViolation(error) ||
          violatedConstraint(error) !== PRIMARY_INDEX ||
          attempt >= MAX_PRIMARY_RACE_RETRIES
        )
          throw error;
      }
    }
  }

  /**
   * Locks every live row of the integration's channel (the integration itself first in the result when
   * found). Returns [] when the integration does not exist in the environment.
   */
  private async lockChannelOf(tx: DbExecutor, environmentId: string, id: string): Promise<IntegrationRow[]> {
    const [target] = await tx
      .select({ channel: integrations.channel })
      .from(integrations)
      .where(and(live(environmentId), eq(integrations.id, id)));
    if (!target) return [];
    const rows = await tx
      .select()
      .from(integrations)
      .where(and(live(environmentId), eq(integrations.channel, target.channel)))
      // Locking in id order keeps concurrent callers from deadlocking; failover order is applied after.
      .orderBy(asc(integrations.id))
      .for('update');
    rows.sort(byFailoverOrder);
    const self = rows.find((row) => row.id === id);
    return self ? [self, ...rows.filter((row) => row !== self)] : [];
  }

  /**
   * Email and sms always have a primary while one of their integrations without conditions is active:
   * promotes the first such one by priority when none is. Returns the row of `watchId` when that one
   * was promoted.
   */
  private async ensurePrimary(
    tx: DbExecutor,
    environmentId: string,
    channel: string,
    watchId?: string,
  ): Promise<IntegrationRow | undefined> {
    if (!CHANNELS_WITH_AUTOMATIC_PRIMARY.has(channel)) return undefined;
    const candidates = await tx
      .select()
      .from(integrations)
      .where(
        and(
          live(environmentId),
          eq(integrations.channel, channel),
          eq(integrations.active, true),
          sql`jsonb_array_length(${integrations.conditions}) = 0`,
        ),
      )
      .orderBy(...failoverOrder)
      .limit(1);
    const [first] = candidates;
    if (!first || first.primary) return undefined;
    const [promoted] = await tx
      .update(integrations)
      .set({ primary: true, updatedAt: new Date() })
      .where(eq(integrations.id, first.id))
      .returning();
    return promoted.id === watchId ? promoted : undefined;
  }
}
