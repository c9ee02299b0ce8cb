import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import type {
  ExecutionDetailRow,
  JobDigest,
  JobRow,
  NotificationRow,
  SubscriberRow,
  WorkflowRow,
} from '../schema/index.js';
import type { NotificationStatus } from '#common';
import type { TriggerFields } from './notification-triggers.js';
import { statusFilterSql, statusKey } from './activity-status-condition.js';

export interface ActivityFilter {
  channels?: string[];
  workflowIds?: string[];
  emails?: string[];
  subscriberIds?: string[];
  search?: string;
  transactionId?: string;
  topicKey?: string;
  /** Exactly these contexts (`type:id`), in any order. */
  contextKeys?: string[];
  after?: Date;
  before?: Date;
  /** Notifications with any of these statuses (from their jobs, see activity-status-condition). */
  statuses?: NotificationStatus[];
}

/**
 * The filters whose values are bound parameters; the statuses are written into the statement. A
 * one-element `subscriberIds` becomes `subscriberId` (see `valueFilter`).
 */
type ValueFilter = Omit<ActivityFilter, 'statuses'> & { subscriberId?: string };

/** A page's notification as the feed shows it; timestamps are ISO 8601 text (UTC, milliseconds). */
export interface FeedNotification extends Pick<
  NotificationRow,
  | 'id'
  | 'environmentId'
  | 'organizationId'
  | 'eventId'
  | 'subscriberId'
  | 'workflowId'
  | 'transactionId'
  | 'digestedNotificationId'
  | 'channels'
  | 'tags'
  | 'controls'
  | 'to'
  | 'topics'
  | 'contextKeys'
> {
  createdAt: string;
  updatedAt: string;
}
export type FeedSubscriber = Pick<SubscriberRow, 'id' | 'subscriberId' | 'firstName' | 'lastName' | 'email' | 'phone'>;
export type FeedWorkflow = Pick<WorkflowRow, 'id' | 'identifier' | 'name' | 'steps'>;
export interface FeedJob extends Pick<JobRow, 'id' | 'notificationId' | 'type' | 'step' | 'providerId' | 'status'> {
  /** A digest that gathered events shows their payloads, derived from its merged notifications (the row keeps none). */
  digest: (JobDigest & { events?: Record<string, unknown>[] }) | null;
  updatedAt: string;
}
/** A page's trigger event: the payload and overrides its notifications and jobs show. */
export interface FeedEvent extends TriggerFields {
  id: string;
}
export interface FeedExecutionDetail extends Pick<
  ExecutionDetailRow,
  'id' | 'jobId' | 'status' | 'detail' | 'source' | 'providerId' | 'raw' | 'isRetry' | 'isTest'
> {
  createdAt: string;
}

/** One page of the activity feed with everything it shows. */
export interface ActivityPage {
  /** Newest first, at most `limit`. */
  notifications: FeedNotification[];
  hasMore: boolean;
  /** Live (not deleted) subscribers and workflows of the page. */
  subscribers: FeedSubscriber[];
  workflows: FeedWorkflow[];
  /** By notification, then step index. */
  jobs: FeedJob[];
  /** Oldest first. */
  executionDetails: FeedExecutionDetail[];
  /** The trigger events of the page's notifications, each once (payloads are kept only there). */
  events: FeedEvent[];
}

/**
 * A filter's SQL condition on notifications `n` (or, for `subscriber`, on subscribers `s`), given the
 * placeholder of its value. Values are bound parameters, so a statement's text depends only on which
 * filters are present.
 */
interface FilterClause {
  on: 'notification' | 'subscriber';
  condition: (param: string) => string;
  value: (filter: ValueFilter) => unknown;
}

/** The text of `param` matched literally by LIKE: its backslashes, % and _ escaped. */
const likeEscaped = (param: string) => `regexp_replace(${param}, '([\\\\%_])', '\\\\\\1', 'g')`;

/** In a fixed order, so equal filter sets give equal statement texts. emails, subscriberIds and search all select subscribers. */
const FILTER_CLAUSES: { [Key in keyof ValueFilter]-?: FilterClause } = {
  subscriberIds: {
    on: 'subscriber',
    condition: (p) => `s.subscriber_id = ANY(${p}::text[])`,
    value: (f) => f.subscriberIds,
  },
  // One subscriber: an equality the (environment, subscriber, created_at) index serves in the feed's
  // order, so the page is its first rows. The list form above joins, and sorts all of its subscribers'
  // notifications — every one of a subscriber with a hundred thousand.
  subscriberId: {
    on: 'notification',
    condition: (p) =>
      `n.subscriber_id = (SELECT s.id FROM subscribers s WHERE s.environment_id = $1 AND s.subscriber_id = ${p})`,
    value: (f) => f.subscriberId,
  },
  emails: { on: 'subscriber', condition: (p) => `s.email = ANY(${p}::text[])`, value: (f) => f.emails },
  // Deprecated search: an email substring or an exact subscriberId.
  search: {
    on: 'subscriber',
    condition: (p) => `(s.email ILIKE '%' || ${likeEscaped(p)} || '%' OR s.subscriber_id = ${p})`,
    value: (f) => f.search,
  },
  channels: { on: 'notification', condition: (p) => `n.channels && ${p}::text[]`, value: (f) => f.channels },
  workflowIds: {
    on: 'notification',
    condition: (p) => `n.workflow_id = ANY(${p}::uuid[])`,
    value: (f) => f.workflowIds,
  },
  transactionId: { on: 'notification', condition: (p) => `n.transaction_id = ${p}`, value: (f) => f.transactionId },
  topicKey: {
    on: 'notification',
    condition: (p) => `n.topics @> ${p}::jsonb`,
    value: (f) => JSON.stringify([{ topicKey: f.topicKey }]),
  },
  contextKeys: {
    on: 'notification',
    condition: (p) => `(n.context_keys @> ${p}::text[] AND n.context_keys <@ ${p}::text[])`,
    value: (f) => f.contextKeys,
  },
  after: { on: 'notification', condition: (p) => `n.created_at >= ${p}`, value: (f) => f.after },
  // A notification's id carries its trigger's time, never later than its created_at: the id bound
  // (a day of room for clocks apart) leaves the newer week partitions out of the plan.
  before: {
    on: 'notification',
    condition: (p) =>
      `n.created_at <= ${p} AND n.id < activity_partition_bound((${p}::timestamptz AT TIME ZONE 'UTC')::date + 2)`,
    value: (f) => f.before,
  },
};

const FILTER_KEYS = Object.keys(FILTER_CLAUSES) as (keyof ValueFilter)[];

/** The ids of a page, newest first ($1 environment, $2 ids to fetch, $3 offset, $5… the filters' values). */
function pageIdsStatement(present: (keyof ValueFilter)[], statuses: string): string {
  const notificationConditions = ['n.environment_id = $1'];
  const byStatus = statusFilterSql(statuses);
  if (byStatus?.condition !== undefined) notificationConditions.push(byStatus.condition);
  const subscriberConditions: string[] = [];
  present.forEach((key, index) => {
    const clause = FILTER_CLAUSES[key];
    (clause.on === 'notification' ? notificationConditions : subscriberConditions).push(
      clause.condition(`$${index + 5}`),
    );
  });
  if (subscriberConditions.length > 0) {
    notificationConditions.push(
      `n.subscriber_id IN (SELECT s.id FROM subscribers s WHERE s.environment_id = $1 AND ${subscriberConditions.join(' AND ')})`,
    );
  }
  // Only ids: the rows an OFFSET skips are read from the index alone, not fetched and converted.
  return `SELECT n.id FROM ${byStatus?.from ?? 'notifications n'} WHERE ${notificationConditions.join(' AND ')}
    ORDER BY n.created_at DESC NULLS LAST, n.id DESC NULLS LAST LIMIT $2 OFFSET $3`;
}

/** Statement texts by the filters present and statuses asked (at most 2^10 × 7, in practice a handful). */
const pageStatements = new Map<string, string>();

/**
 * One statement: the page's ids (and one more, for hasMore), then their contents from
 * `activity_feed_page` (migrations 0006, 0027). Named, so each connection plans it once: over a
 * partition per week, planning it for every request cost more than running it.
 */
function pageStatement(present: (keyof ValueFilter)[], statuses: string): string {
  const key = `${present.join(',')}|${statuses}`;
  let text = pageStatements.get(key);
  if (text === undefined)
    pageStatements.set(
      key,
      (text = `WITH page AS (SELECT ARRAY(${pageIdsStatement(present, statuses)}) AS ids)
        SELECT f.* FROM page, activity_feed_page($1, page.ids, $4) f`),
    );
  return text;
}

/** A page without filters, from a function that keeps its plan (migration 0034). */
const NEWEST_STATEMENT = 'SELECT f.* FROM activity_feed_newest($1, $2, $3, $4) f';

interface ActivityPageRow {
  has_more: boolean;
  notification_rows: FeedNotification[];
  subscriber_rows: FeedSubscriber[];
  workflow_rows: FeedWorkflow[];
  job_rows: FeedJob[];
  execution_detail_rows: FeedExecutionDetail[];
  event_rows: FeedEvent[];
}

/** The read side of GET /v1/notifications: filtered, newest first, page-numbered. */
@Injectable()
export class ActivityFeedRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async page(environmentId: string, filter: ActivityFilter, page: number, limit: number): Promise<ActivityPage> {
    const values = valueFilter(filter);
    const present = FILTER_KEYS.filter((key) => isPresent(values[key]));
    const statuses = statusKey(filter.statuses);
    const text =
      present.length === 0 && !statusFilterSql(statuses) ? NEWEST_STATEMENT : pageStatement(present, statuses);
    const result = await this.db.$client.query<ActivityPageRow>(text, [
      environmentId,
      limit + 1,
      page * limit,
      limit,
      ...present.map((key) => FILTER_CLAUSES[key].value(values)),
    ]);
    return toActivityPage(result.rows[0]);
  }

  /** One notification of the environment with everything the feed shows of it; none when unknown there. */
  async one(environmentId: string, notificationId: string): Promise<ActivityPage> {
    const result = await this.db.$client.query<ActivityPageRow>(
      `SELECT f.* FROM activity_feed_page($1, ARRAY[$2::uuid], 1) f`,
      [environmentId, notificationId],
    );
    return toActivityPage(result.rows[0]);
  }
}

function toActivityPage(row: ActivityPageRow): ActivityPage {
  return {
    notifications: row.notification_rows,
    hasMore: row.has_more,
    subscribers: row.subscriber_rows,
    workflows: row.workflow_rows,
    jobs: row.job_rows,
    executionDetails: row.execution_detail_rows,
    events: row.event_rows,
  };
}

function valueFilter({ statuses: _statuses, ...filter }: ActivityFilter): ValueFilter {
  const [only, ...others] = filter.subscriberIds ?? [];
  return only !== undefined && others.length === 0
    ? { ...filter, subscriberIds: undefined, subscriberId: only }
    : filter;
}

const isPresent = (value: unknown) => (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== '');
