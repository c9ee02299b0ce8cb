import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { templateVariables } from '#application';
import {
  ActivityFeedRepository,
  type ExecutionDetailRow,
  type JobRow,
  type NotificationRow,
  type SubscriberRow,
  type WorkflowRow,
} from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { ListNotificationsQueryDto } from '../dto/list-notifications.query.js';
import type { ExecutionDetailDto, NotificationItemDto, NotificationJobDto, NotificationPageDto } from '../dto/notification-response.dto.js';

/** Workflows created through this API; Novu reports the same origin for its v1 workflows. */
const WORKFLOW_ORIGIN = 'novu-cloud-v1';

function parseDate(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw DomainError.validation(field, `${field} must be a valid ISO 8601 date`, value);
  return date;
}

/**
 * GET /v1/notifications: one query for the page (limit + 1 rows, so hasMore is exact), then one
 * for the page's subscribers, workflows, jobs and execution details together.
 */
@Injectable()
export class ListNotificationsUseCase {
  constructor(private readonly feed: ActivityFeedRepository) {}

  async execute(auth: AuthContext, query: ListNotificationsQueryDto): Promise<NotificationPageDto> {
    const after = parseDate('after', query.after);
    const before = parseDate('before', query.before);
    if (after && before && after > before) throw DomainError.validation('after', 'after must not be later than before', query.after);

    const { rows, hasMore } = await this.feed.listNotifications(
      auth.environmentId,
      {
        channels: query.channels,
        workflowIds: query.templates,
        emails: query.emails,
        subscriberIds: query.subscriberIds,
        search: query.search,
        transactionId: query.transactionId,
        topicKey: query.topicKey,
        after,
        before,
      },
      query.page,
      query.limit,
    );
    const data = await this.expand(auth.environmentId, rows);
    return { hasMore, data, pageSize: query.limit, page: query.page };
  }

  private async expand(environmentId: string, rows: NotificationRow[]): Promise<NotificationItemDto[]> {
    if (rows.length === 0) return [];
    const { subscribers, workflows, jobs, executionDetails: details } = await this.feed.pageRelations(environmentId, rows);
    const subscriberById = new Map(subscribers.map((row) => [row.id, row]));
    const workflowById = new Map(workflows.map((row) => [row.id, row]));
    const detailsByJob = groupBy(details, (detail) => detail.jobId);
    const jobsByNotification = groupBy(jobs, (job) => job.notificationId);
    return rows.map((row) =>
      toItem(row, subscriberById.get(row.subscriberId), workflowById.get(row.workflowId), jobsByNotification.get(row.id) ?? [], detailsByJob),
    );
  }
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

function toItem(
  row: NotificationRow,
  subscriber: SubscriberRow | undefined,
  workflow: WorkflowRow | undefined,
  jobs: JobRow[],
  detailsByJob: Map<string, ExecutionDetailRow[]>,
): NotificationItemDto {
  return {
    _id: row.id,
    _environmentId: row.environmentId,
    _organizationId: row.organizationId,
    _subscriberId: row.subscriberId,
    transactionId: row.transactionId,
    _templateId: row.workflowId,
    _digestedNotificationId: row.digestedNotificationId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    channels: row.channels,
    subscriber: subscriber && {
      _id: subscriber.id,
      subscriberId: subscriber.subscriberId,
      firstName: subscriber.firstName,
      lastName: subscriber.lastName,
      email: subscriber.email,
      phone: subscriber.phone,
    },
    template: workflow && {
      _id: workflow.id,
      name: workflow.name,
      origin: WORKFLOW_ORIGIN,
      triggers: [{ type: 'event', identifier: workflow.identifier, variables: templateVariables(workflow.steps, 'payload') }],
    },
    jobs: [...jobs].sort((a, b) => a.stepIndex - b.stepIndex).map((job) => toJob(job, detailsByJob.get(job.id) ?? [])),
    payload: row.payload,
    tags: row.tags,
    controls: row.controls,
    to: row.to ?? null,
    topics: row.topics,
  };
}

function toJob(job: JobRow, details: ExecutionDetailRow[]): NotificationJobDto {
  return {
    _id: job.id,
    type: job.type,
    digest: (job.digest as Record<string, unknown> | null) ?? null,
    executionDetails: [...details].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map(toExecutionDetail),
    step: job.step as unknown as Record<string, unknown>,
    overrides: job.overrides,
    payload: job.payload,
    providerId: job.providerId,
    status: job.status,
    updatedAt: job.updatedAt.toISOString(),
  };
}

function toExecutionDetail(detail: ExecutionDetailRow): ExecutionDetailDto {
  return {
    _id: detail.id,
    createdAt: detail.createdAt.toISOString(),
    status: detail.status,
    detail: detail.detail,
    isRetry: detail.isRetry,
    isTest: detail.isTest,
    providerId: detail.providerId,
    raw: detail.raw,
    source: detail.source,
  };
}
