import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { StoredStep } from './workflows.js';
import { tenantColumns, timestamps, tz, jsonb } from './columns.js';

/**
 * One accepted trigger: the dedup key (transactionId) and the outbox the worker fans out from.
 * Partitioned by week of its id like the activity tables (migration 0029); the transactionId is
 * unique per partition (an index each partition has of its own, see the migration) and looked for in
 * the older ones by the insert.
 */
export const triggerEvents = pgTable(
  'trigger_events',
  {
    ...tenantColumns(),
    transactionId: text('transaction_id').notNull(),
    workflowId: uuid('workflow_id').notNull(),
    /**
     * The trigger body as accepted (name, to, payload, overrides, actor, tenant, context): the only
     * copy of its payload and overrides. Notifications, jobs and messages reach them through
     * `notifications.event_id`: a copy per recipient would multiply a large payload by the size of a
     * topic. No separate payload column: the body is mostly the payload, and every older event row
     * already holds it here.
     */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull().default('received'),
    error: text('error'),
    ...timestamps(),
  },
  (t) => [
    index('trigger_events_status_idx').on(t.status, t.updatedAt),
    // The retention's walk through an environment's events, oldest first.
    index('trigger_events_env_created_idx').on(t.environmentId, t.createdAt.desc(), t.id.desc()),
  ],
);

export const notifications = pgTable(
  'notifications',
  {
    ...tenantColumns(),
    eventId: uuid('event_id').notNull(),
    /** Internal subscriber id. */
    subscriberId: uuid('subscriber_id').notNull(),
    workflowId: uuid('workflow_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    channels: text('channels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    to: jsonb('to').$type<unknown>(),
    topics: jsonb('topics')
      .$type<{ _topicId: string; topicKey: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    controls: jsonb('controls')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The trigger's contexts as `type:id`, in the order sent. */
    contextKeys: text('context_keys')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    digestedNotificationId: uuid('digested_notification_id'),
    ...timestamps(),
  },
  (t) => [
    // A retried fan-out chunk inserts nothing twice: the id is derived from (event, subscriber).
    index('notifications_event_subscriber_idx').on(t.eventId, t.subscriberId),
    index('notifications_env_created_idx').on(t.environmentId, t.createdAt.desc(), t.id.desc()),
    index('notifications_env_subscriber_created_idx').on(
      t.environmentId,
      t.subscriberId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index('notifications_env_transaction_idx').on(t.environmentId, t.transactionId),
    // A digest's events are read through the notifications merged into it, in creation order.
    index('notifications_digested_idx')
      .on(t.digestedNotificationId, t.createdAt, t.id)
      .where(sql`${t.digestedNotificationId} IS NOT NULL`),
  ],
);

/**
 * A digest job's settings. The events it gathered are not kept here (a copy per subscriber would
 * multiply every payload): they are its notification's payload, then those of the notifications
 * merged into it (`digestedNotificationId`), read from their trigger events when shown.
 */
/** A channel step's next provider attempt: which delivery, through which integration, its number. */
export interface ProviderRetry {
  deliveryKey: string;
  integrationId: string;
  attempt: number;
}

/**
 * What a finished step leaves behind: an http_request's response, read by the templates of the
 * steps after it; a throttle's counter key and the time it let a run through.
 */
export interface JobResult {
  response?: Record<string, unknown>;
  throttleKey?: string;
  passedAt?: string;
  /**
   * ISO time until which later runs still read this finished job (a throttle pass counted in its
   * window, a backoff digest's event): the retention keeps it, and its notification, until then.
   */
  retainUntil?: string;
}

export interface JobDigest {
  digestKey?: string;
  digestValue?: string;
  amount?: number;
  unit?: string;
  type?: string;
  backoff?: boolean;
  backoffAmount?: number;
  backoffUnit?: string;
  updateMode?: boolean;
  timed?: Record<string, unknown>;
}

export const jobs = pgTable(
  'jobs',
  {
    ...tenantColumns(),
    notificationId: uuid('notification_id').notNull(),
    subscriberId: uuid('subscriber_id').notNull(),
    workflowId: uuid('workflow_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    /** Position of the step in the workflow; jobs of a notification run in this order. */
    stepIndex: integer('step_index').notNull(),
    step: jsonb('step').$type<StoredStep>().notNull(),
    type: text('type').notNull(),
    status: text('status').notNull().default('pending'),
    digest: jsonb('digest').$type<JobDigest | null>(),
    providerId: text('provider_id'),
    parentId: uuid('parent_id'),
    /** When a waiting job (delay, digest, schedule hold) is due. */
    runAt: tz('run_at'),
    attempts: integer('attempts').notNull().default(0),
    /** Times the recovery sweeper found this job `running` without a heartbeat: its worker stopped mid-run. */
    stalls: integer('stalls').notNull().default(0),
    /** The provider call a channel step retries when its job runs again after the backoff. */
    providerRetry: jsonb('provider_retry').$type<ProviderRetry | null>(),
    result: jsonb('result').$type<JobResult | null>(),
    error: text('error'),
    ...timestamps(),
  },
  // Every job's row changes status a few times, and a change writes an entry in each index whose
  // predicate the row meets: the two partial indexes hold only the rows their readers look for.
  (t) => [
    // One job per (notification, step): the id is derived from them.
    index('jobs_notification_step_idx').on(t.notificationId, t.stepIndex),
    // The jobs not finished: the recovery sweeper's lookup of jobs left queued, delayed or running,
    // and the retention's of the work a partition's rows are kept for.
    index('jobs_status_updated_idx')
      .on(t.status, t.updatedAt)
      .where(sql`${t.status} in ('pending', 'queued', 'delayed', 'running')`),
    index('jobs_env_transaction_idx').on(t.environmentId, t.transactionId),
    // The activity feed's `failed` filter starts from the few failed jobs instead of checking the jobs
    // of every notification; a job enters it once, when it fails.
    index('jobs_env_failed_idx')
      .on(t.environmentId, t.notificationId)
      .where(sql`${t.status} = 'failed'`),
    // The open digest window and the throttle's recent passes of one subscriber and workflow.
    index('jobs_digest_lookup_idx')
      .on(t.environmentId, t.subscriberId, t.workflowId, t.type, t.status)
      .where(sql`${t.type} in ('digest', 'throttle')`),
  ],
);

export const executionDetails = pgTable(
  'execution_details',
  {
    ...tenantColumns(),
    jobId: uuid('job_id').notNull(),
    notificationId: uuid('notification_id').notNull(),
    subscriberId: uuid('subscriber_id').notNull(),
    status: text('status').notNull(),
    detail: text('detail').notNull(),
    source: text('source').notNull().default('Internal'),
    providerId: text('provider_id'),
    raw: text('raw'),
    isRetry: boolean('is_retry').notNull().default(false),
    isTest: boolean('is_test').notNull().default(false),
    ...timestamps(),
  },
  (t) => [index('execution_details_notification_idx').on(t.notificationId, t.createdAt)],
);

export type TriggerEventRow = typeof triggerEvents.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotificationRow = typeof notifications.$inferInsert;
export type JobRow = typeof jobs.$inferSelect;
export type NewJobRow = typeof jobs.$inferInsert;
export type ExecutionDetailRow = typeof executionDetails.$inferSelect;
export type NewExecutionDetailRow = typeof executionDetails.$inferInsert;
