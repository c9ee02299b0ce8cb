import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbExecutor } from '../database/database.js';
import { subscribers } from '../schema/index.js';

/** Advisory lock class ("ERAS") of an environment's subscriber erasures; the key is the environment. */
const ERASURE_LOCK_CLASS = 0x45524153;

const lockKey = (environmentId: string): SQL => sql`${ERASURE_LOCK_CLASS}, hashtext(${environmentId})`;

/**
 * Held (shared) by each worker transaction that writes activity rows of the environment: a fan-out
 * chunk's notifications and jobs, a batch of step outcomes with their messages and execution details;
 * and by the API's writes of a subscriber's preferences and topic memberships (lockLiveSubscribers).
 * A subscriber delete holds it exclusively (eraseSubscriberData): it waits for those in progress, whose
 * rows it then erases, and those that start meanwhile wait for it to commit, then see it deleted.
 * It costs them no round trip (one more call in their first statement); the pause it puts on the
 * environment's worker writes lasts as long as the delete (docs/security.md).
 */
export const activityWriteLock = (environmentId: string): SQL =>
  sql`pg_advisory_xact_lock_shared(${lockKey(environmentId)})`;

/**
 * For a write of subscribers' own rows outside the worker (preferences, topic memberships), first in
 * the writer's transaction: takes the environment's erasure lock shared, then returns which of these
 * subscribers (internal ids) are still live; the writer writes for those only. A delete that commits
 * while this waits is seen by the check, which runs in a statement of its own (a later snapshot); a
 * delete that starts later waits for this transaction, then erases what it wrote.
 */
export async function lockLiveSubscribers(tx: DbExecutor, environmentId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  await tx.execute(sql`SELECT ${activityWriteLock(environmentId)}`);
  const live = await tx
    .select({ id: subscribers.id })
    .from(subscribers)
    .where(
      and(eq(subscribers.environmentId, environmentId), inArray(subscribers.id, ids), eq(subscribers.deleted, false)),
    );
  return new Set(live.map((row) => row.id));
}

/**
 * The subscriberIds a trigger body names: each `to` entry given as an id or as a subscriber object,
 * each topic entry's `exclude`, and the actor. Lax jsonpath reads `to` and `actor` whether they are one
 * entry or an array, and `silent` never raises on an odd shape, so the expression is immutable and
 * safe to index. The erasure's search is bounded by an index on exactly this text:
 * `CREATE INDEX trigger_events_named_subscribers_idx ON trigger_events USING gin ((<this>) jsonb_path_ops)`.
 */
const NAMED_SUBSCRIBERS = sql.raw(
  `(jsonb_path_query_array(request, '$.to ? (@.type() == "string")', '{}', true)` +
    ` || jsonb_path_query_array(request, '$.to.subscriberId', '{}', true)` +
    ` || jsonb_path_query_array(request, '$.to.exclude[*]', '{}', true)` +
    ` || jsonb_path_query_array(request, '$.actor ? (@.type() == "string")', '{}', true)` +
    ` || jsonb_path_query_array(request, '$.actor.subscriberId', '{}', true))`,
);

/**
 * Erases what a subscriber held besides its row: its notifications with their jobs and execution
 * details, its messages, preferences, topic memberships and webhook events, and its mentions in trigger bodies. Runs in
 * the caller's transaction, which has just marked the subscriber deleted and cleared its fields. It
 * first takes the environment's erasure lock, so no fan-out chunk or step outcome of the environment
 * writes meanwhile (see activityWriteLock). Each statement finds its rows through an index on the
 * subscriber or on its notifications, so the time grows with what the subscriber has, not with the
 * environment; the search of trigger bodies needs the index named at NAMED_SUBSCRIBERS for that.
 */
export async function eraseSubscriberData(
  tx: DbExecutor,
  environmentId: string,
  subscriber: { id: string; subscriberId: string },
): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockKey(environmentId)})`);
  await eraseTriggerMentions(tx, environmentId, subscriber.subscriberId);
  // An array, not a join: the jobs and details are then probed by notification in their index, never
  // found by a scan of the whole table, whatever the planner estimates.
  const own = sql`ARRAY(SELECT n.id FROM notifications n WHERE n.environment_id = ${environmentId} AND n.subscriber_id = ${subscriber.id})`;
  // Jobs first: a canceled trigger's execution details are written in the transaction that holds their jobs.
  await tx.execute(sql`DELETE FROM jobs WHERE notification_id = ANY(${own})`);
  await tx.execute(sql`DELETE FROM execution_details WHERE notification_id = ANY(${own})`);
  await tx.execute(
    sql`DELETE FROM messages WHERE environment_id = ${environmentId} AND subscriber_id = ${subscriber.id}`,
  );
  // Every notification merged into a digest was merged into one of the same subscriber: they all go here.
  await tx.execute(
    sql`DELETE FROM notifications WHERE environment_id = ${environmentId} AND subscriber_id = ${subscriber.id}`,
  );
  await tx.execute(
    sql`DELETE FROM preferences WHERE environment_id = ${environmentId} AND subscriber_id = ${subscriber.id}`,
  );
  await tx.execute(
    sql`DELETE FROM topic_subscribers WHERE environment_id = ${environmentId} AND subscriber_id = ${subscriber.id}`,
  );
  // Webhook events about it (its messages, preferences) carry its data: they go, sent or not.
  const events = sql`ARRAY(SELECT e.id FROM webhook_events e WHERE e.subscriber_id = ${subscriber.id} AND e.environment_id = ${environmentId})`;
  await tx.execute(sql`DELETE FROM webhook_deliveries WHERE event_id = ANY(${events})`);
  await tx.execute(
    sql`DELETE FROM webhook_events WHERE environment_id = ${environmentId} AND subscriber_id = ${subscriber.id}`,
  );
}

/** A trigger body entry that is this subscriber: its id, or a subscriber object with its id (never a topic). */
const isEntry = (entry: SQL, subscriberId: string): SQL =>
  sql`((${entry}) = to_jsonb(${subscriberId}::text) OR (jsonb_typeof(${entry}) = 'object'
    AND (${entry}) ->> 'subscriberId' = ${subscriberId} AND (${entry}) ->> 'type' IS DISTINCT FROM 'Topic')) IS TRUE`;

/** A topic entry without the subscriber in its `exclude`; any other entry as it is. */
const withoutExclusion = (entry: SQL, subscriberId: string): SQL =>
  sql`CASE WHEN jsonb_typeof((${entry}) -> 'exclude') = 'array'
    THEN jsonb_set(${entry}, '{exclude}', ((${entry}) -> 'exclude') - ${subscriberId}::text) ELSE ${entry} END`;

/**
 * Takes the subscriber out of the trigger bodies that name it: its `to` entries (with the fields sent
 * inline: email, phone, data), its place in a topic entry's `exclude`, and the actor when it is the
 * actor. A body left with no `to` entry addressed only this subscriber: the event goes whole (its
 * payload was sent to it alone). The other recipients' events keep their payload and their entries.
 * Events are locked in id order, so two concurrent erasures of one event's recipients both apply.
 */
async function eraseTriggerMentions(tx: DbExecutor, environmentId: string, subscriberId: string): Promise<void> {
  const to = sql`n.request -> 'to'`;
  await tx.execute(sql`
    WITH named AS (
      SELECT e.id, e.request FROM trigger_events e
      WHERE ${NAMED_SUBSCRIBERS} @> jsonb_build_array(${subscriberId}::text) AND e.environment_id = ${environmentId}
      ORDER BY e.id FOR UPDATE
    ), recipients AS (
      SELECT n.id, n.request, ${to} AS to_before, ${isEntry(sql`n.request -> 'actor'`, subscriberId)} AS actor_named,
        CASE
          WHEN jsonb_typeof(${to}) = 'array' THEN (
            SELECT coalesce(jsonb_agg(${withoutExclusion(sql`x.e`, subscriberId)} ORDER BY x.o), '[]'::jsonb)
            FROM jsonb_array_elements(${to}) WITH ORDINALITY AS x(e, o)
            WHERE NOT ${isEntry(sql`x.e`, subscriberId)})
          WHEN ${isEntry(to, subscriberId)} THEN '[]'::jsonb
          ELSE ${withoutExclusion(to, subscriberId)}
        END AS to_after
      FROM named n
    ), scrubbed AS (
      SELECT r.id, (r.to_after = '[]'::jsonb AND r.to_before IS DISTINCT FROM '[]'::jsonb) IS TRUE AS alone,
        CASE WHEN r.actor_named THEN t.request - 'actor' ELSE t.request END AS request
      FROM recipients r
      CROSS JOIN LATERAL (
        SELECT CASE WHEN r.to_after IS NULL THEN r.request ELSE jsonb_set(r.request, '{to}', r.to_after) END AS request
      ) t
    ), gone AS (
      DELETE FROM trigger_events e USING scrubbed s WHERE e.id = s.id AND s.alone
    )
    UPDATE trigger_events e SET request = s.request FROM scrubbed s WHERE e.id = s.id AND NOT s.alone`);
}
