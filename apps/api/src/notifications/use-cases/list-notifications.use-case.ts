import { Injectable } from '@nestjs/common';
import { DomainError, groupBy } from '#common';
import { templateVariables } from '#application';
import {
  ActivityFeedRepository,
  type ActivityPage,
  type FeedEvent,
  type FeedExecutionDetail,
  type FeedJob,
  type FeedNotification,
  type FeedSubscriber,
  type FeedWorkflow,
} from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { ListNotificationsQueryDto } from '../dto/list-notifications.query.js';
import type {
  ExecutionDetailDto,
  NotificationItemDto,
  NotificationJobDto,
  NotificationPageDto,
  NotificationSubscriberDto,
  NotificationTemplateDto,
} from '../dto/notification-response.dto.js';

/** Workflows created through this API; Novu reports the same origin for its v1 workflows. */
const WORKFLOW_ORIGIN = 'novu-cloud-v1';

/**
 * The provider of a job without one (delay, digest, a channel step with no integration): Novu names
 * its own `novu` for a channel job without an integration, and its clients require a provider on
 * every job.
 */
const INTERNAL_PROVIDER = 'novu';

/** `{ key: value }` when there is a value: Novu's clients accept these fields absent, not null. */
function present<K extends string, V>(key: K, value: V | null | undefined): Partial<Record<K, V>> {
  return value === null || value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function parseDate(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw DomainError.validation(field, `${field} must be a valid ISO 8601 date`, value);
  return date;
}

/** GET /v1/notifications: the page and its subscribers, workflows, jobs and execution details in one read. */
@Injectable()
export class ListNotificationsUseCase {
  constructor(private readonly feed: ActivityFeedRepository) {}

  async execute(auth: AuthContext, query: ListNotificationsQueryDto): Promise<NotificationPageDto> {
    const after = parseDate('after', query.after);
    const before = parseDate('before', query.before);
    if (after && before && after > before)
      throw DomainError.validation('after', 'after must not be later than before', query.after);

    const page = await this.feed.page(
      auth.environmentId,
      {
        channels: query.channels,
        workflowIds: query.templates,
        emails: query.emails,
        subscriberIds: query.subscriberIds,
        search: query.search,
        transactionId: query.transactionId,
        topicKey: query.topicKey,
        contextKeys: query.contextKeys,
        statuses: query.statuses,
        after,
        before,
      },
      query.page,
      query.limit,
    );
    return { hasMore: page.hasMore, data: items(page), pageSize: query.limit, page: query.page };
  }
}

/** A notification whose trigger event is gone (or was seeded without one): empty, as the dropped copies' default was. */
const NO_EVENT: Omit<FeedEvent, 'id'> = { payload: {}, overrides: {} };

/**
 * Each notification with its subscriber, workflow and jobs; a page's shared parts are built once. The
 * payload and overrides of a notification and its jobs are its trigger event's (stored only there).
 */
export function items(page: ActivityPage): NotificationItemDto[] {
  const subscriberById = new Map(page.subscribers.map((row) => [row.id, toSubscriber(row)]));
  const templateById = new Map(page.workflows.map((row) => [row.id, toTemplate(row)]));
  const eventById = new Map(page.events.map((row) => [row.id, row]));
  const detailsByJob = groupBy(page.executionDetails, (detail) => detail.jobId);
  const jobsByNotification = groupBy(page.jobs, (job) => job.notificationId);
  return page.notifications.map((row) =>
    toItem(
      row,
      eventById.get(row.eventId) ?? NO_EVENT,
      subscriberById.get(row.subscriberId),
      templateById.get(row.workflowId),
      jobsByNotification.get(row.id) ?? [],
      detailsByJob,
    ),
  );
}

function toSubscriber(subscriber: FeedSubscriber): NotificationSubscriberDto {
  return {
    _id: subscriber.id,
    subscriberId: subscriber.subscriberId,
    ...present('firstName', subscriber.firstName),
    ...present('lastName', subscriber.lastName),
    ...present('email', subscriber.email),
    ...present('phone', subscriber.phone),
  };
}

function toTemplate(workflow: FeedWorkflow): NotificationTemplateDto {
  return {
    _id: workflow.id,
    name: workflow.name,
    origin: WORKFLOW_ORIGIN,
    triggers: [
      { type: 'event', identifier: workflow.identifier, variables: templateVariables(workflow.steps, 'payload') },
    ],
  };
}

/** Jobs come by step index and details oldest first (ActivityPage). */
function toItem(
  row: FeedNotification,
  event: Omit<FeedEvent, 'id'>,
  subscriber: NotificationSubscriberDto | undefined,
  template: NotificationTemplateDto | undefined,
  jobs: FeedJob[],
  detailsByJob: Map<string, FeedExecutionDetail[]>,
): NotificationItemDto {
  return {
    _id: row.id,
    _environmentId: row.environmentId,
    _organizationId: row.organizationId,
    _subscriberId: row.subscriberId,
    transactionId: row.transactionId,
    _templateId: row.workflowId,
    ...present('_digestedNotificationId', row.digestedNotificationId),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    channels: row.channels,
    subscriber,
    template,
    jobs: jobs.map((job) => toJob(job, event, detailsByJob.get(job.id) ?? [])),
    payload: event.payload,
    tags: row.tags,
    controls: row.controls,
    ...present('to', row.to),
    topics: row.topics,
    contextKeys: row.contextKeys,
  };
}

function toJob(job: FeedJob, event: Omit<FeedEvent, 'id'>, details: FeedExecutionDetail[]): NotificationJobDto {
  return {
    _id: job.id,
    type: job.type,
    ...present('digest', feedDigest(job.digest) as Record<string, unknown> | null),
    executionDetails: details.map(toExecutionDetail),
    // A step's template is stored inside it: the workflows module gives it the step's id, as here for
    // a step stored without one.
    step: { ...(job.step as unknown as Record<string, unknown>), _templateId: job.step._templateId ?? job.step._id },
    overrides: event.overrides,
    payload: event.payload,
    providerId: job.providerId ?? INTERNAL_PROVIDER,
    status: job.status,
    updatedAt: job.updatedAt,
  };
}

/** A timed digest's monthDays are stored as the step's strings; the Job shape (and Novu's clients) take numbers. */
function feedDigest(digest: FeedJob['digest']): FeedJob['digest'] {
  const monthDays = digest?.timed?.monthDays;
  if (!digest?.timed || !Array.isArray(monthDays)) return digest;
  return { ...digest, timed: { ...digest.timed, monthDays: monthDays.map(Number) } };
}

function toExecutionDetail(detail: FeedExecutionDetail): ExecutionDetailDto {
  return {
    _id: detail.id,
    createdAt: detail.createdAt,
    status: detail.status,
    detail: detail.detail,
    isRetry: detail.isRetry,
    isTest: detail.isTest,
    ...present('providerId', detail.providerId),
    raw: detail.raw,
    source: detail.source,
  };
}
