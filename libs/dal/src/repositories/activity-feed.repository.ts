import { Inject, Injectable } from '@nestjs/common';
import { and, eq, getTableName, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import {
  executionDetails,
  jobs,
  notifications,
  subscribers,
  workflows,
  type ExecutionDetailRow,
  type JobRow,
  type NotificationRow,
  type SubscriberRow,
  type WorkflowRow,
} from '../schema/index.js';
import { selectListText, tableRows, uuidArrayLiteral } from './table-sql.js';

export interface ActivityFilter {
  channels?: string[];
  workflowIds?: string[];
  emails?: string[];
  subscriberIds?: string[];
  search?: string;
  transactionId?: string;
  topicKey?: string;
  after?: Date;
  before?: Date;
}

/** What a page of notifications shows besides the notifications themselves. */
export interface NotificationPageRelations {
  /** Live (not deleted) subscribers and workflows of the page. */
  subscribers: SubscriberRow[];
  workflows: WorkflowRow[];
  /** By notification, then step index. */
  jobs: JobRow[];
  /** Oldest first. */
  executionDetails: ExecutionDetailRow[];
}

/** A table's rows as one JSON array (camelCase keys, JSON columns as text, for `tableRows`), ordered. */
function rowsAsJson(table: PgTable, alias: string, where: string, orderBy: string): string {
  return `(SELECT coalesce(json_agg(t ORDER BY ${orderBy}), '[]') FROM (SELECT ${selectListText(table, alias)} FROM ${getTableName(table)} ${alias} WHERE ${where}) t)`;
}

let pageRelationsText: string | undefined;

/**
 * One statement text for every page, built once ($1 environment, $2 subscriber ids, $3 workflow ids,
 * $4 notification ids): Drizzle's building of this statement was a sixth of the feed's CPU. Rows are
 * found by their keys; the environment is checked on what is found (see `checkOnly`).
 */
function pageRelationsStatement(): string {
  pageRelationsText ??= `SELECT
    ${rowsAsJson(subscribers, 's', 's.id = ANY($2::uuid[]) AND (s.environment_id = $1 AND NOT s.deleted) IS TRUE', 't.id')} AS "subscribers",
    ${rowsAsJson(workflows, 'w', 'w.id = ANY($3::uuid[]) AND (w.environment_id = $1 AND NOT w.deleted) IS TRUE', 't.id')} AS "workflows",
    ${rowsAsJson(jobs, 'j', 'j.notification_id = ANY($4::uuid[]) AND (j.environment_id = $1) IS TRUE', 't."notificationId", t."stepIndex"')} AS "jobs",
    ${rowsAsJson(executionDetails, 'd', 'd.notification_id = ANY($4::uuid[]) AND (d.environment_id = $1) IS TRUE', 't."createdAt", t.id')} AS "executionDetails"`;
  return pageRelationsText;
}

/** The read side of GET /v1/notifications: filtered, newest first, page-numbered. */
@Injectable()
export class ActivityFeedRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Fetches limit + 1 rows so the caller knows exactly whether another page exists. */
  async listNotifications(environmentId: string, filter: ActivityFilter, page: number, limit: number): Promise<{ rows: NotificationRow[]; hasMore: boolean }> {
    const conditions: SQL[] = [eq(notifications.environmentId, environmentId)];
    const subscriberIds = await this.resolveSubscriberFilter(environmentId, filter);
    if (subscriberIds !== undefined) {
      if (subscriberIds.length === 0) return { rows: [], hasMore: false };
      conditions.push(inArray(notifications.subscriberId, subscriberIds));
    }
    if (filter.channels?.length) conditions.push(sql`${notifications.channels} && ${toTextArray(filter.channels)}`);
    if (filter.workflowIds?.length) conditions.push(inArray(notifications.workflowId, filter.workflowIds));
    if (filter.transactionId) conditions.push(eq(notifications.transactionId, filter.transactionId));
    if (filter.topicKey) conditions.push(sql`${notifications.topics} @> ${JSON.stringify([{ topicKey: filter.topicKey }])}::jsonb`);
    if (filter.after) conditions.push(gte(notifications.createdAt, filter.after));
    if (filter.before) conditions.push(lte(notifications.createdAt, filter.before));
    const rows = await this.db
      .select()
      .from(notifications)
      .where(and(...conditions))
      .orderBy(newestFirst)
      .limit(limit + 1)
      .offset(page * limit);
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  /**
   * The subscribers, workflows, jobs and execution details of a page in one statement (one JSON
   * array each): a round trip costs the api more than the rows it brings, and this replaces four.
   */
  async pageRelations(environmentId: string, page: NotificationRow[]): Promise<NotificationPageRelations> {
    if (page.length === 0) return { subscribers: [], workflows: [], jobs: [], executionDetails: [] };
    const distinct = (ids: string[]) => uuidArrayLiteral([...new Set(ids)]);
    const result = await this.db.$client.query<Record<keyof NotificationPageRelations, Record<string, unknown>[]>>(pageRelationsStatement(), [
      environmentId,
      distinct(page.map((row) => row.subscriberId)),
      distinct(page.map((row) => row.workflowId)),
      uuidArrayLiteral(page.map((row) => row.id)),
    ]);
    const [row] = result.rows;
    return {
      subscribers: tableRows<SubscriberRow>(subscribers, row.subscribers),
      workflows: tableRows<WorkflowRow>(workflows, row.workflows),
      jobs: tableRows<JobRow>(jobs, row.jobs),
      executionDetails: tableRows<ExecutionDetailRow>(executionDetails, row.executionDetails),
    };
  }

  /** emails, subscriberIds and search all select subscribers; undefined = no subscriber filter. */
  private async resolveSubscriberFilter(environmentId: string, filter: ActivityFilter): Promise<string[] | undefined> {
    const selectors: SQL[] = [];
    if (filter.subscriberIds?.length) selectors.push(inArray(subscribers.subscriberId, filter.subscriberIds));
    if (filter.emails?.length) selectors.push(inArray(subscribers.email, filter.emails));
    if (filter.search) {
      const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      selectors.push(or(ilike(subscribers.email, pattern), eq(subscribers.subscriberId, filter.search))!);
    }
    if (selectors.length === 0) return undefined;
    const rows = await this.db
      .select({ id: subscribers.id })
      .from(subscribers)
      .where(and(eq(subscribers.environmentId, environmentId), ...selectors));
    return rows.map((row) => row.id);
  }
}

/** Spelled as the index is built (DESC NULLS LAST); plain DESC means NULLS FIRST and skips the index. */
const newestFirst = sql`${notifications.createdAt} DESC NULLS LAST, ${notifications.id} DESC NULLS LAST`;

function toTextArray(values: string[]): SQL {
  return sql`ARRAY[${sql.join(values.map((value) => sql`${value}`), sql`, `)}]::text[]`;
}
