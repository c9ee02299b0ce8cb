import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { subscribers, type SubscriberRow } from '../schema/index.js';
import { selectListText, tableRows, uuids } from './table-sql.js';

/** What decides whether an environment's inbox sessions must be proven with a subscriberHash. */
export interface HmacSwitches {
  organizationId: string;
  /** The environment's own switch (the operator CLI). */
  requireHmac: boolean;
  /** The encrypted credentials of its active in_app integrations: Novu's switch is `credentials.hmac`. */
  inAppCredentials: string[];
}

/** A live subscriber with its environment's HMAC switches, as an inbox session needs them on every request. */
export interface InboxSessionState extends HmacSwitches {
  subscriber: SubscriberRow;
  /** The API key asked about (the one whose hash proved the session) still exists in the environment. */
  proofKeyLive: boolean;
}

const IN_APP_CREDENTIALS = `ARRAY(SELECT i.credentials FROM integrations i
  WHERE i.environment_id = e.id AND i.channel = 'in_app' AND i.active AND NOT i.deleted) AS in_app_credentials`;

/** $1 the subscriber's row id, $2 the session's environment, $3 an API key id (or null). */
const STATE = `
  SELECT ${selectListText(subscribers, 's')}, e.organization_id AS env_organization_id,
    e.require_hmac AS env_require_hmac, ${IN_APP_CREDENTIALS},
    EXISTS(SELECT 1 FROM api_keys k WHERE k.id = $3::uuid AND k.environment_id = e.id) AS proof_key_live
  FROM subscribers s JOIN environments e ON e.id = s.environment_id
  WHERE s.id = $1::uuid AND (s.environment_id = $2::uuid AND NOT s.deleted) IS TRUE`;

function switchesOf(raw: Record<string, unknown>): HmacSwitches {
  return {
    organizationId: raw.env_organization_id as string,
    requireHmac: raw.env_require_hmac === true,
    inAppCredentials: (raw.in_app_credentials as string[] | null) ?? [],
  };
}

/**
 * The reads that keep inbox sessions honest: each request and socket is checked against the
 * subscriber row and the environment as they are now, so a delete or an HMAC switch ends sessions
 * at once, on every api process, with no cache to wait out.
 */
@Injectable()
export class InboxSessionRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * One statement (named once it repeats: StatementNames): the live subscriber (by row id),
   * its environment's switches, and whether `proofKeyId` still exists. Every inbox request runs it.
   */
  async state(
    environmentId: string,
    subscriberRowId: string,
    proofKeyId?: string,
  ): Promise<InboxSessionState | undefined> {
    const result = await this.db.$client.query<Record<string, unknown>>(STATE, [
      subscriberRowId,
      environmentId,
      proofKeyId ?? null,
    ]);
    const raw = result.rows[0];
    if (!raw) return undefined;
    return {
      subscriber: tableRows<SubscriberRow>(subscribers, [raw])[0],
      ...switchesOf(raw),
      proofKeyLive: raw.proof_key_live === true,
    };
  }

  /** The API keys among the ids that still exist. */
  async liveKeys(keyIds: string[]): Promise<Set<string>> {
    if (keyIds.length === 0) return new Set();
    const result = await this.db.execute<{ id: string }>(sql`SELECT id FROM api_keys WHERE id = ANY(${uuids(keyIds)})`);
    return new Set(result.rows.map((row) => row.id));
  }

  /**
   * Each live subscriber among the row ids, with its environment and generation; deleted and unknown
   * ones are absent. Across environments: an api process's open sockets belong to many.
   */
  async liveGenerations(
    subscriberRowIds: string[],
  ): Promise<Map<string, { environmentId: string; generation: number }>> {
    if (subscriberRowIds.length === 0) return new Map();
    const result = await this.db.execute<{ id: string; environment_id: string; generation: number }>(sql`
      SELECT id, environment_id, generation FROM subscribers WHERE id = ANY(${uuids(subscriberRowIds)}) AND NOT deleted`);
    return new Map(
      result.rows.map((row) => [row.id, { environmentId: row.environment_id, generation: Number(row.generation) }]),
    );
  }

  /** The HMAC switches of each existing environment among the ids. */
  async switches(environmentIds: string[]): Promise<Map<string, HmacSwitches>> {
    if (environmentIds.length === 0) return new Map();
    const result = await this.db.execute<Record<string, unknown>>(sql`
      SELECT e.id, e.organization_id AS env_organization_id, e.require_hmac AS env_require_hmac, ${sql.raw(IN_APP_CREDENTIALS)}
      FROM environments e WHERE e.id = ANY(${uuids(environmentIds)})`);
    return new Map(result.rows.map((raw) => [raw.id as string, switchesOf(raw)]));
  }
}
