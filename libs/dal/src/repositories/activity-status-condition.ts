import { JOB_STATUSES, NOTIFICATION_STATUSES, TERMINAL_JOB_STATUSES, type NotificationStatus } from '#common';

/**
 * The activity feed's status filter: where its page ids are read from and a condition on notifications
 * `n` ($1 the environment). A notification's status comes from its jobs (NOTIFICATION_STATUSES).
 *
 * Two shapes, because the statuses differ by orders of magnitude in how many notifications have them
 * (EXPLAIN at a million notifications in docs/retention.md, "The feed's status filter"):
 * - `failed`, `pending` and the two together are rare (failures, work in flight): the page starts from
 *   their jobs, read from partial indexes holding only them (`jobs_env_failed_idx`, migration 0033;
 *   `jobs_status_updated_idx`), and looks each notification up by id. The cost follows the number of
 *   such notifications, never the size of the feed. Each lookup is a LIMIT 1 subquery so it runs per
 *   id and reads one week partition: as a join, PostgreSQL costs it as a probe of every partition and
 *   preferred reading the whole feed.
 * - the sets with `completed` are most notifications: the page walks the feed's index in order, as
 *   without the filter, and reads the status of each notification it passes from its jobs
 *   (`activity_notification_status`, migration 0033: one partition's index), stopping once the page is
 *   full. A function call, not an anti join: with one, the generic plan hashed every unfinished job and
 *   sorted the whole feed.
 * The statuses are a closed list written into the statement, not bound: each set has a plan of its own.
 */

const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
const UNFINISHED = quoted(JOB_STATUSES.filter((status) => !TERMINAL_JOB_STATUSES.includes(status)));

/** Jobs `j` of the environment, each set written so that one partial index serves it. */
const FAILED_JOBS = `jobs j WHERE j.environment_id = $1 AND j.status = 'failed'`;
const UNFINISHED_JOBS = `jobs j WHERE j.environment_id = $1 AND j.status IN (${UNFINISHED})`;
/** Unfinished jobs of the notifications with no failed job: what makes a notification pending. */
const PENDING_JOBS = `${UNFINISHED_JOBS} AND NOT EXISTS (SELECT 1 FROM jobs f
  WHERE f.notification_id = j.notification_id AND f.environment_id = $1 AND f.status = 'failed')`;

/** The notifications `n` with a job in one of the sets, each looked up in its own partition. */
const fromJobsIn = (...sets: string[]) =>
  `(${sets.map((set) => `SELECT DISTINCT j.notification_id AS id FROM ${set}`).join(' UNION ')}) c
    CROSS JOIN LATERAL (SELECT * FROM notifications n WHERE n.id = c.id LIMIT 1) n`;

const walkedWith = (statuses: NotificationStatus[]) => ({
  from: 'notifications n',
  condition: `activity_notification_status($1, n.id) IN (${quoted(statuses)})`,
});

export interface StatusFilterSql {
  /** The FROM clause giving notifications `n`. */
  from: string;
  condition?: string;
}

/** By the statuses asked for, in NOTIFICATION_STATUSES' order; all three ask for nothing. */
const BY_STATUSES: Partial<Record<string, StatusFilterSql>> = {
  failed: { from: fromJobsIn(FAILED_JOBS) },
  pending: { from: fromJobsIn(PENDING_JOBS) },
  'failed,pending': { from: fromJobsIn(FAILED_JOBS, UNFINISHED_JOBS) },
  completed: walkedWith(['completed']),
  'failed,completed': walkedWith(['failed', 'completed']),
  'pending,completed': walkedWith(['pending', 'completed']),
};

/** The statuses asked for, each once and in a fixed order: equal sets give equal statement texts. */
export function statusKey(statuses: readonly NotificationStatus[] | undefined): string {
  return NOTIFICATION_STATUSES.filter((status) => statuses?.includes(status)).join(',');
}

/** The SQL of a statusKey, or none when it selects every notification (no status or all of them). */
export function statusFilterSql(key: string): StatusFilterSql | undefined {
  return BY_STATUSES[key];
}
