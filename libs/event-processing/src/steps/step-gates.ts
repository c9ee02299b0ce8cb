import { Injectable } from '@nestjs/common';
import { Batcher, type Channel } from '#common';
import { evaluateStepFilters, isWithinSchedule, nextOpenSlot, SubscriberPreferenceService } from '#application';
import type { WorkflowRow } from '#dal';
import { STEP_BATCH } from '../queue/step-entries.js';
import { record, templateVariables, type StepContext } from './step-context.js';
import { outcome, type StepOutcome } from './step-outcome.js';
import type { StepNeeds } from './handlers/step-handler.js';

/**
 * The checks before a step runs: step filters (every step type), then the channel preference and the
 * delivery schedule (as its handler needs). Returns the outcome that stops or holds the step, or undefined.
 */
@Injectable()
export class StepGates {
  /** The latest workflow row of each batch group, which the group key only names (one entry per workflow and channel). */
  private readonly groupWorkflows = new Map<string, WorkflowRow>();
  /** Concurrent channel steps of one workflow and channel resolve their preferences in one query. */
  private readonly enabledBatch = new Batcher<string, boolean>(
    async (group, subscriberIds) => {
      const workflow = this.groupWorkflows.get(group)!;
      const [environmentId, , channel] = group.split('|');
      return this.preferences.isChannelEnabledForMany(environmentId, subscriberIds, workflow, channel as Channel);
    },
    (id) => id,
    false,
    STEP_BATCH,
  );

  constructor(private readonly preferences: SubscriberPreferenceService) {}

  private async isChannelEnabled(
    environmentId: string,
    subscriberId: string,
    workflow: WorkflowRow,
    channel: Channel,
  ): Promise<boolean> {
    const group = `${environmentId}|${workflow.id}|${channel}`;
    this.groupWorkflows.set(group, workflow);
    return (await this.enabledBatch.load(group, subscriberId)) ?? true;
  }

  async check(context: StepContext, needs: StepNeeds): Promise<StepOutcome | undefined> {
    const { job, subscriber, workflow } = context;
    const variables = templateVariables(context);
    const filters = evaluateStepFilters(job.step.filters, {
      subscriber: variables.subscriber,
      payload: variables.payload,
      tenant: variables.tenant,
    });
    if (!filters.passed) {
      record(context, {
        status: 'Success',
        source: 'Internal',
        detail: `Step was skipped based on steps conditions: ${filters.detail}`,
      });
      return outcome.canceled();
    }
    if (!needs.preferences || !subscriber) return undefined;
    // A step with preferences is a channel step: its type is the channel.
    const channel = job.type as Channel;
    if (workflow && !(await this.isChannelEnabled(job.environmentId, subscriber.id, workflow, channel))) {
      record(context, {
        status: 'Success',
        source: 'Internal',
        detail: `Step filtered by subscriber preferences: the ${job.type} channel is disabled`,
      });
      return outcome.canceled();
    }
    if (!needs.schedule || workflow?.critical) return undefined;
    const schedule = await this.preferences.getSchedule(job.environmentId, subscriber.id);
    if (!schedule?.isEnabled || isWithinSchedule(schedule, subscriber.timezone, context.now)) return undefined;
    const releaseAt = nextOpenSlot(schedule, subscriber.timezone, context.now);
    record(context, {
      status: 'Pending',
      source: 'Internal',
      detail: `Step held: outside the subscriber's delivery schedule (timezone ${subscriber.timezone ?? 'UTC'}) until ${releaseAt.toISOString()}`,
    });
    return outcome.delayed(releaseAt);
  }
}
