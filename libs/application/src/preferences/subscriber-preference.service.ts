import { Injectable } from '@nestjs/common';
import type { Channel } from '#common';
import { PreferenceRepository, type PreferenceRow } from '#dal';
import type { Schedule } from '../schedule/schedule.js';
import { resolveChannel, type PreferenceWorkflow } from './preference-resolver.js';

/** The workflow fields the send-time check needs (a WorkflowRow fits). */
export type SendTimeWorkflow = PreferenceWorkflow & { id: string };

/**
 * Preferences at send time (BEHAVIOR "Workflow engine"): the same layer resolution as the API's
 * preferences response, read straight from the stored rows. Critical workflows always send.
 */
@Injectable()
export class SubscriberPreferenceService {
  constructor(private readonly preferences: PreferenceRepository) {}

  /** One query for many recipients of one workflow step: internal subscriber id → allowed. */
  async isChannelEnabledForMany(
    environmentId: string,
    subscriberInternalIds: string[],
    workflow: SendTimeWorkflow,
    channel: Channel,
  ): Promise<Map<string, boolean>> {
    const rows = workflow.critical
      ? []
      : await this.preferences.findLayers(environmentId, subscriberInternalIds, workflow.id);
    const bySubscriber = groupLayers(rows);
    return new Map(
      subscriberInternalIds.map((id) => [id, resolveChannel(workflow, bySubscriber.get(id) ?? {}, channel).enabled]),
    );
  }

  /** The subscriber's delivery schedule (stored on the global preference), or null when none was saved. */
  async getSchedule(environmentId: string, subscriberInternalId: string): Promise<Schedule | null> {
    return (await this.preferences.findGlobal(environmentId, subscriberInternalId))?.schedule ?? null;
  }

  /** The subscribers' delivery schedules (stored on the global preference), for those who saved one. */
  async getSchedules(environmentId: string, subscriberInternalIds: string[]): Promise<Map<string, Schedule>> {
    const rows = await this.preferences.findGlobals(environmentId, subscriberInternalIds);
    return new Map(rows.flatMap((row) => (row.schedule ? [[row.subscriberId, row.schedule] as const] : [])));
  }
}

function groupLayers(
  rows: PreferenceRow[],
): Map<string, { global?: Record<string, boolean>; workflow?: Record<string, boolean> }> {
  const layers = new Map<string, { global?: Record<string, boolean>; workflow?: Record<string, boolean> }>();
  for (const row of rows) {
    const entry = layers.get(row.subscriberId) ?? {};
    if (row.workflowId === null) entry.global = row.channels;
    else entry.workflow = row.channels;
    layers.set(row.subscriberId, entry);
  }
  return layers;
}
