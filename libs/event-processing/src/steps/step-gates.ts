import { Injectable } from '@nestjs/common';
import { isChannel, stepRegistration, type Channel } from '#common';
import {
  evaluateStepFilters,
  isWithinSchedule,
  nextOpenSlot,
  skipConditionHolds,
  SubscriberPreferenceService,
  type Schedule,
} from '#application';
import type { StoredStep, WorkflowRow } from '#dal';
import { record, templateVariables, type StepContext } from './step-context.js';
import { outcome, type StepOutcome } from './step-outcome.js';

/**
 * The checks before steps start: step filters (every step type), then the channel preference
 * (channel steps) and the delivery schedule (the step types whose STEP_REGISTRY entry follows it).
 * For a batch of steps of one environment, preferences are read in one query per workflow and
 * channel, schedules in one query. Returns, per step, the outcome that stops or holds it, or undefined.
 */
@Injectable()
export class StepGates {
  constructor(private readonly preferences: SubscriberPreferenceService) {}

  async check(environmentId: string, contexts: StepContext[]): Promise<(StepOutcome | undefined)[]> {
    const results: (StepOutcome | undefined)[] = contexts.map((context) => filtersOutcome(context));
    const open = contexts.flatMap((context, index) =>
      results[index] === undefined && isChannel(context.job.type) && context.subscriber ? [index] : [],
    );
    const enabled = await this.channelsEnabled(
      environmentId,
      open.map((index) => contexts[index]),
    );
    for (const index of open) {
      const context = contexts[index];
      if (enabled.get(context.job.id) === false) results[index] = preferenceOutcome(context);
    }
    const scheduled = open.filter(
      (index) =>
        results[index] === undefined &&
        stepRegistration(contexts[index].job.type)?.followsSchedule &&
        !contexts[index].workflow?.critical,
    );
    const schedules = await this.preferences.getSchedules(environmentId, [
      ...new Set(scheduled.map((index) => contexts[index].subscriber!.id)),
    ]);
    for (const index of scheduled) {
      const context = contexts[index];
      results[index] = scheduleOutcome(context, schedules.get(context.subscriber!.id));
    }
    return results;
  }

  /** Whether each job's channel is enabled for its subscriber, by job id: one query per workflow and channel. */
  private async channelsEnabled(environmentId: string, contexts: StepContext[]): Promise<Map<string, boolean>> {
    const groups = new Map<string, { workflow: WorkflowRow; channel: Channel; contexts: StepContext[] }>();
    for (const context of contexts) {
      const { workflow, job } = context;
      if (!workflow) continue;
      const key = `${workflow.id}:${job.type}`;
      // Only channel steps come here: the job's type is the channel.
      const group = groups.get(key) ?? { workflow, channel: job.type as Channel, contexts: [] };
      group.contexts.push(context);
      groups.set(key, group);
    }
    const enabled = new Map<string, boolean>();
    for (const group of groups.values()) {
      const bySubscriber = await this.preferences.isChannelEnabledForMany(
        environmentId,
        [...new Set(group.contexts.map((context) => context.subscriber!.id))],
        group.workflow,
        group.channel,
      );
      for (const context of group.contexts)
        enabled.set(context.job.id, bySubscriber.get(context.subscriber!.id) ?? true);
    }
    return enabled;
  }
}

export function filtersOutcome(context: StepContext): StepOutcome | undefined {
  const variables = templateVariables(context);
  // A v2 step's condition (controlValues.skip, JSON Logic) skips the step when it holds.
  const skip = context.job.step.controlValues?.skip;
  if (skip !== undefined && skipConditionHolds(skip, { ...variables })) {
    record(context, { status: 'Success', source: 'Internal', detail: 'Step was skipped: its skip condition holds' });
    return outcome.canceled();
  }
  const filters = evaluateStepFilters(context.job.step.filters, {
    subscriber: variables.subscriber,
    payload: variables.payload,
    tenant: variables.tenant,
  });
  if (filters.passed) {
    recordVariant(context);
    return undefined;
  }
  record(context, {
    status: 'Success',
    source: 'Internal',
    detail: `Step was skipped based on steps conditions: ${filters.detail}`,
  });
  return outcome.canceled();
}

function preferenceOutcome(context: StepContext): StepOutcome {
  record(context, {
    status: 'Success',
    source: 'Internal',
    detail: `Step filtered by subscriber preferences: the ${context.job.type} channel is disabled`,
  });
  return outcome.canceled();
}

/** Holds a step outside the subscriber's delivery schedule until it next opens. */
export function scheduleOutcome(context: StepContext, schedule: Schedule | undefined): StepOutcome | undefined {
  const { subscriber, now } = context;
  if (!schedule?.isEnabled || isWithinSchedule(schedule, subscriber?.timezone, now)) return undefined;
  const releaseAt = nextOpenSlot(schedule, subscriber?.timezone, now);
  record(context, {
    status: 'Pending',
    source: 'Internal',
    detail: `Step held: outside the subscriber's delivery schedule (timezone ${subscriber?.timezone ?? 'UTC'}) until ${releaseAt.toISOString()}`,
  });
  return outcome.delayed(releaseAt);
}

/**
 * The context with the step's first variant whose filters pass for the subscriber, payload and
 * tenant: the job then runs that variant's template, metadata and reply callback under the step's
 * id. A variant without filters or turned off is never chosen: the step itself is the fallback.
 * Chosen again whenever the job runs (a resume after a provider retry or a schedule hold), since a
 * job keeps no copy of its choice; the same subscriber and payload choose the same variant.
 */
export function withVariant(context: StepContext): StepContext {
  const { step } = context.job;
  if (!step.variants?.length) return context;
  const variables = templateVariables(context);
  const index = step.variants.findIndex(
    (variant) =>
      variant.active !== false &&
      variant.filters?.length > 0 &&
      evaluateStepFilters(variant.filters, {
        subscriber: variables.subscriber,
        payload: variables.payload,
        tenant: variables.tenant,
      }).passed,
  );
  if (index < 0) return context;
  const variant = step.variants[index];
  const resolved: StoredStep = {
    ...step,
    template: variant.template,
    metadata: variant.metadata,
    replyCallback: variant.replyCallback,
  };
  return {
    ...context,
    job: { ...context.job, step: resolved },
    variant: { index, id: variant._id, name: variant.name },
  };
}

/** Names the variant a starting step runs in its execution details. */
export function recordVariant(context: StepContext): void {
  const { variant } = context;
  if (!variant) return;
  record(context, {
    status: 'Success',
    source: 'Internal',
    detail: `Variant ${variant.index} "${variant.name ?? variant.id}" (${variant.id}) selected: its filters matched`,
  });
}
