import { Inject, Injectable } from '@nestjs/common';
import { and, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { notifications, subscribers, type NotificationRow } from '../schema/index.js';

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
