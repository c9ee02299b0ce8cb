import { Injectable } from '@nestjs/common';
import { Batcher } from '#common';
import {
  parseActor,
  tenantIdentifierOf,
  toSubscriberResponse,
  WorkflowCache,
  type TemplateVariables,
} from '#application';
import {
  JobRepository,
  NotificationRepository,
  SubscriberRepository,
  TenantRepository,
  type JobRow,
  type NotificationTriggerContext,
  type SubscriberRow,
  type TenantRow,
  type WorkflowRow,
} from '#dal';
import { STEP_BATCH } from '../queue/step-entries.js';
import type { StepDetail } from './step-outcome.js';

/** Everything a step job needs, loaded once per run. */
export interface StepContext {
  job: JobRow;
  /**
   * The trigger's payload, read from its event with the notification (a job holds no copy). Absent
   * only for a context that fails its job before anything was loaded.
   */
  payload?: Record<string, unknown>;
  subscriber?: SubscriberRow;
  workflow?: WorkflowRow;
  actor?: SubscriberRow;
  tenant?: TenantRow;
  /** The outcome of an earlier digest step of this notification, for `step.events` / `step.total_count`. */
  digestEvents?: Record<string, unknown>[];
  now: Date;
  /** Execution details recorded during the run, written with the job's final status. */
  details: StepDetail[];
  /** templateVariables, built once: filters and the template both read them. */
  variables?: TemplateVariables;
}

export function record(context: StepContext, detail: StepDetail): void {
  context.details.push(detail);
}

/** The variables templates and filters see. */
export function templateVariables(context: StepContext): TemplateVariables {
  if (context.variables) return context.variables;
  const events = context.digestEvents;
  context.variables = {
    subscriber: context.subscriber
      ? (toSubscriberResponse(context.subscriber) as unknown as Record<string, unknown>)
      : {},
    payload: context.payload ?? {},
    actor: context.actor ? (toSubscriberResponse(context.actor) as unknown as Record<string, unknown>) : null,
    tenant: context.tenant
      ? { identifier: context.tenant.identifier, name: context.tenant.name, data: context.tenant.data ?? {} }
      : null,
    step: events ? { digest: true, events, total_count: events.length } : {},
  };
  return context.variables;
}

/**
 * Loads step contexts. Concurrent step jobs (a batch) read their notifications with their trigger
 * events (actor, tenant and payload, each event once), subscribers, actors and tenants in one
 * statement each per environment; a topic's jobs share one event, actor and tenant.
 */
@Injectable()
export class StepContextLoader {
  private readonly triggers = new Batcher<string, NotificationTriggerContext>(
    async (env, ids) => new Map((await this.notifications.findTriggerContexts(env, ids)).map((row) => [row.id, row])),
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
  /** Actors by external subscriber id. */
  private readonly actors = new Batcher<string, SubscriberRow>(
    async (env, ids) =>
      new Map((await this.subscribers.findBySubscriberIds(env, ids)).map((row) => [row.subscriberId, row])),
    (id) => id,
  );
  private readonly tenantBatch = new Batcher<string, TenantRow>(
    async (env, identifiers) =>
      new Map((await this.tenants.findByIdentifiers(env, identifiers)).map((row) => [row.identifier, row])),
    (identifier) => identifier,
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
    const [trigger, subscriber, workflow] = await Promise.all([
      this.triggers.load(env, job.notificationId),
      this.subscriberBatch.load(env, job.subscriberId),
      this.workflows.byId(env, job.workflowId),
    ]);
    if (!trigger) return undefined;
    const actorRef = parseActor(trigger.actor);
    const tenantIdentifier = tenantIdentifierOf(trigger.tenant);
    const [actor, tenant, digestEvents] = await Promise.all([
      actorRef ? this.actors.load(env, actorRef.subscriberId) : undefined,
      tenantIdentifier ? this.tenantBatch.load(env, tenantIdentifier) : undefined,
      job.stepIndex > 0 ? this.digestEventsBefore(job, trigger.payload) : undefined,
    ]);
    return { job, payload: trigger.payload, subscriber, workflow, actor, tenant, digestEvents, now, details: [] };
  }

  /**
   * After a digest that gathered events: this notification's payload, then those of the events merged
   * into it, oldest first (the digest job keeps no copy of them).
   */
  private async digestEventsBefore(
    job: JobRow,
    payload: Record<string, unknown>,
  ): Promise<Record<string, unknown>[] | undefined> {
    const earlier = await this.jobs.findByNotification(job.environmentId, job.notificationId);
    if (!earlier.some((other) => other.stepIndex < job.stepIndex && gatheredEvents(other))) return undefined;
    return [payload, ...(await this.notifications.findDigestedPayloads(job.environmentId, job.notificationId))];
  }
}

/**
 * A digest job that released its window (completed) or let a first backoff event through (skipped);
 * one canceled by its filters, failed or merged gathered nothing. activity_feed_page (migration
 * 0006) shows a digest's events by the same rule.
 */
const gatheredEvents = (job: JobRow) =>
  job.type === 'digest' && (job.status === 'completed' || job.status === 'skipped');
