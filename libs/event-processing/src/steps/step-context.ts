import { Injectable } from '@nestjs/common';
import { stepRegistration } from '#common';
import {
  contextEntriesOf,
  EnvironmentVariableCache,
  parseActor,
  tenantIdentifierOf,
  toSubscriberResponse,
  TranslationCache,
  WorkflowCache,
  type ContextEntry,
  type EnvironmentTranslations,
  type TemplateVariables,
} from '#application';
import {
  IntegrationRepository,
  JobRepository,
  NotificationRepository,
  SubscriberRepository,
  TenantRepository,
  type IntegrationRow,
  type JobRow,
  type SubscriberRow,
  type TenantRow,
  type WorkflowRow,
} from '#dal';
import type { StepDetail } from './step-outcome.js';

/** Everything a step job needs, loaded once per run. */
export interface StepContext {
  job: JobRow;
  /**
   * The trigger's payload, read from its event with the notification (a job holds no copy). Absent
   * only for a context that fails its job before anything was loaded.
   */
  payload?: Record<string, unknown>;
  /** The trigger's overrides, read like its payload. */
  overrides?: Record<string, unknown>;
  subscriber?: SubscriberRow;
  workflow?: WorkflowRow;
  actor?: SubscriberRow;
  tenant?: TenantRow;
  /** The trigger's `context`, by type: `context.<type>.id` in templates, `type:id` in the messages' contextKeys. */
  triggerContext?: Record<string, ContextEntry>;
  /** The variant of the step the job runs (withVariant in step-gates.ts), when one's filters matched. */
  variant?: { index: number; id: string; name?: string };
  /** The outcome of an earlier digest step of this notification, for `step.events` / `step.total_count`. */
  digestEvents?: Record<string, unknown>[];
  /** What earlier steps of this notification left (an http_request's response), for `steps.<name>`. */
  steps?: Record<string, unknown>;
  /** The environment's active integrations of the job's channel in failover order, for a step that sends through them. */
  integrations?: IntegrationRow[];
  /** The organization's environment variables with this environment's values (`env.<KEY>`), loaded once per batch. */
  env?: Record<string, string>;
  /** The environment's translations (`{{t.key}}`), loaded once per batch from the process's cache. */
  translations?: EnvironmentTranslations;
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
    steps: context.steps ?? {},
    context: context.triggerContext ?? {},
    env: context.env ?? {},
  };
  return context.variables;
}

/**
 * Loads the contexts of a batch of step jobs of one environment: their notifications with their
 * trigger events (actor, tenant and payload), subscribers, actors, tenants, the active integrations
 * of the channels that need them and the jobs before them (digest events) in one query each.
 */
@Injectable()
export class StepContextLoader {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly workflows: WorkflowCache,
    private readonly tenants: TenantRepository,
    private readonly integrations: IntegrationRepository,
    private readonly jobs: JobRepository,
    private readonly variables: EnvironmentVariableCache,
    private readonly translationCache: TranslationCache,
  ) {}

  /** The context of each job, by job id; none for a job whose notification no longer exists. */
  async load(environmentId: string, jobs: JobRow[], now: Date): Promise<Map<string, StepContext>> {
    const env = environmentId;
    const channels = unique(jobs.map((job) => job.type).filter((type) => stepRegistration(type)?.usesIntegrations));
    const [triggers, subscribers, workflows, integrations, { earlier, digests }, variables, translations] =
      await Promise.all([
        this.notifications.findTriggerContexts(env, unique(jobs.map((job) => job.notificationId))),
        this.subscribers.findByIds(env, unique(jobs.map((job) => job.subscriberId))),
        Promise.all(unique(jobs.map((job) => job.workflowId)).map((id) => this.workflows.byId(env, id))),
        Promise.all(
          channels.map(
            async (channel) => [channel, await this.integrations.listActiveByChannel(env, channel)] as const,
          ),
        ),
        this.earlierJobs(env, jobs).then(async (earlier) => ({
          earlier,
          digests: await this.digestEvents(env, jobs, earlier),
        })),
        // A batch belongs to one environment, hence to one organization.
        jobs.length > 0 ? this.variables.of(jobs[0].organizationId, env) : undefined,
        this.translationCache.of(env),
      ]);
    const triggerById = byKey(triggers, (row) => row.id);
    const actorIds = unique(triggers.flatMap((row) => parseActor(row.actor)?.subscriberId ?? []));
    const tenantIds = unique(triggers.flatMap((row) => tenantIdentifierOf(row.tenant) ?? []));
    const [actors, tenants] = await Promise.all([
      this.subscribers.findBySubscriberIds(env, actorIds),
      this.tenants.findByIdentifiers(env, tenantIds),
    ]);
    const subscriberById = byKey(subscribers, (row) => row.id);
    const workflowById = byKey(
      workflows.flatMap((row) => row ?? []),
      (row) => row.id,
    );
    const actorById = byKey(actors, (row) => row.subscriberId);
    const tenantById = byKey(tenants, (row) => row.identifier);
    const integrationsOf = new Map(integrations);
    const contexts = new Map<string, StepContext>();
    for (const job of jobs) {
      const trigger = triggerById.get(job.notificationId);
      if (!trigger) continue;
      const actorRef = parseActor(trigger.actor);
      const tenantIdentifier = tenantIdentifierOf(trigger.tenant);
      contexts.set(job.id, {
        job,
        payload: trigger.payload,
        overrides: trigger.overrides,
        subscriber: subscriberById.get(job.subscriberId),
        workflow: workflowById.get(job.workflowId),
        actor: actorRef ? actorById.get(actorRef.subscriberId) : undefined,
        tenant: tenantIdentifier ? tenantById.get(tenantIdentifier) : undefined,
        triggerContext: contextEntriesOf(trigger.context),
        digestEvents: digests.get(job.id),
        steps: stepResults(job, earlier),
        integrations: integrationsOf.get(job.type),
        env: variables?.plain,
        translations,
        now,
        details: [],
      });
    }
    return contexts;
  }

  /** The jobs of the notifications of the jobs that are not their first step. */
  private earlierJobs(env: string, jobs: JobRow[]): Promise<JobRow[]> {
    const later = jobs.filter((job) => job.stepIndex > 0);
    return this.jobs.findByNotifications(env, unique(later.map((job) => job.notificationId)));
  }

  /**
   * For each job after a digest that gathered events: its notification's payload, then those of the
   * events merged into it, oldest first (the digest job keeps no copy of them).
   */
  private async digestEvents(
    env: string,
    jobs: JobRow[],
    earlier: JobRow[],
  ): Promise<Map<string, Record<string, unknown>[]>> {
    const later = jobs.filter((job) => job.stepIndex > 0);
    const afterDigest = later.filter((job) =>
      earlier.some(
        (other) =>
          other.notificationId === job.notificationId && other.stepIndex < job.stepIndex && gatheredEvents(other),
      ),
    );
    if (afterDigest.length === 0) return new Map();
    const triggers = byKey(
      await this.notifications.findTriggerContexts(env, unique(afterDigest.map((job) => job.notificationId))),
      (row) => row.id,
    );
    const entries = await Promise.all(
      afterDigest.map(async (job) => {
        const merged = await this.notifications.findDigestedPayloads(env, job.notificationId);
        return [job.id, [triggers.get(job.notificationId)?.payload ?? {}, ...merged]] as [
          string,
          Record<string, unknown>[],
        ];
      }),
    );
    return new Map(entries);
  }
}

/** The results the steps before `job` left (an http_request's response), by step name and by step id. */
function stepResults(job: JobRow, earlier: JobRow[]): Record<string, unknown> | undefined {
  let steps: Record<string, unknown> | undefined;
  for (const other of earlier) {
    if (other.notificationId !== job.notificationId || other.stepIndex >= job.stepIndex || !other.result?.response)
      continue;
    const entry = { response: other.result.response };
    steps ??= {};
    // Own properties even for a name like __proto__: a step name is tenant input.
    for (const key of [other.step._id, other.step.name ?? ''])
      if (key) Object.defineProperty(steps, key, { value: entry, enumerable: true, configurable: true });
  }
  return steps;
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

function byKey<T>(rows: T[], key: (row: T) => string): Map<string, T> {
  return new Map(rows.map((row) => [key(row), row]));
}

/**
 * A digest job that released its window (completed) or let a first backoff event through (skipped);
 * one canceled by its filters, failed or merged gathered nothing. activity_feed_page (migration
 * 0006) shows a digest's events by the same rule.
 */
const gatheredEvents = (job: JobRow) =>
  job.type === 'digest' && (job.status === 'completed' || job.status === 'skipped');
