import { Injectable } from '@nestjs/common';
import { toSubscriberResponse } from '#application';
import {
  JobRepository,
  NotificationRepository,
  SubscriberRepository,
  TenantRepository,
  type JobRow,
  type NotificationRow,
  type SubscriberRow,
  type TenantRow,
  type WorkflowRow,
} from '#dal';
import { WorkflowCache } from '../cache/workflow-cache.js';
import { Batcher } from '../database/batcher.js';
import { STEP_BATCH } from '../queue/step-entries.js';
import { parseActor, tenantIdentifierOf } from '../trigger/recipients.js';
import type { StepDetail } from './step-outcome.js';

/** Everything a step job needs, loaded once per run. */
export interface StepContext {
  job: JobRow;
  notification: NotificationRow;
  subscriber?: SubscriberRow;
  workflow?: WorkflowRow;
  actor?: SubscriberRow;
  tenant?: TenantRow;
  /** The outcome of an earlier digest step of this notification, for `step.events` / `step.total_count`. */
  digestEvents?: Record<string, unknown>[];
  now: Date;
  /** Execution details recorded during the run, written with the job's final status. */
  details: StepDetail[];
}

export function record(context: StepContext, detail: StepDetail): void {
  context.details.push(detail);
}

/** The variables templates and filters see. */
export function templateVariables(context: StepContext) {
  const events = context.digestEvents;
  return {
    subscriber: context.subscriber ? (toSubscriberResponse(context.subscriber) as unknown as Record<string, unknown>) : {},
    payload: context.job.payload,
    actor: context.actor ? (toSubscriberResponse(context.actor) as unknown as Record<string, unknown>) : null,
    tenant: context.tenant ? { identifier: context.tenant.identifier, name: context.tenant.name, data: context.tenant.data ?? {} } : null,
    step: events ? { digest: true, events, total_count: events.length } : {},
  };
}

type NotificationWithRequest = { notification: NotificationRow; request: Record<string, unknown> | null };

@Injectable()
export class StepContextLoader {
  /** Concurrent step jobs read their notifications and subscribers in one statement each, per environment. */
  private readonly notificationBatch = new Batcher<string, NotificationWithRequest>(
    async (env, ids) => new Map((await this.notifications.findManyWithRequest(env, ids)).map((row) => [row.notification.id, row])),
    (id) => id,
    false,
    STEP_BATCH,
  );
  private readonly subscriberBatch = new Batcher<string, SubscriberRow>(
    async (env, ids) => new Map((await this.subscribers.findByIds(env, ids)).map((row) => [row.id, row])),
    (id) => id,
    false,
    STEP_BATCH,
  );

  constructor(
    private readonly notifications: NotificationRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly workflows: WorkflowCache,
    private readonly tenants: TenantRepository,
    private readonly jobs: JobRepository,
  ) {}

  async load(job: JobRow, now: Date): Promise<StepContext | undefined> {
    const env = job.environmentId;
    const [found, subscriber, workflow] = await Promise.all([
      this.notificationBatch.load(env, job.notificationId),
      this.subscriberBatch.load(env, job.subscriberId),
      this.workflows.byId(env, job.workflowId),
    ]);
    if (!found) return undefined;
    const actorRef = parseActor(found.request?.actor);
    const tenantIdentifier = tenantIdentifierOf(found.request?.tenant);
    const [actor, tenant, digestEvents] = await Promise.all([
      actorRef ? this.subscribers.findBySubscriberId(env, actorRef.subscriberId) : undefined,
      tenantIdentifier ? this.tenants.findByIdentifier(env, tenantIdentifier) : undefined,
      job.stepIndex > 0 ? this.digestEventsBefore(job) : undefined,
    ]);
    return { job, notification: found.notification, subscriber, workflow, actor, tenant, digestEvents, now, details: [] };
  }
  private async digestEventsBefore(job: JobRow): Promise<Record<string, unknown>[] | undefined> {
    const earlier = await this.jobs.findByNotification(job.environmentId, job.notificationId);
    const digest = earlier.filter((other) => other.type === 'digest' && other.stepIndex < job.stepIndex && other.digest?.events).pop();
    return digest?.digest?.events;
  }
}
