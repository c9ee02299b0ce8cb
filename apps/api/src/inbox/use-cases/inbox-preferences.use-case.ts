import { Injectable } from '@nestjs/common';
import {
  channelChoices,
  parseSchedule,
  PreferenceWriter,
  resolveGlobalChannels,
  toWorkflowPreferenceResult,
} from '#application';
import { PreferenceRepository, WorkflowRepository, type PreferenceRow } from '#dal';
import type { InboxSession } from '../session-token.js';
import type { ChannelPreferencesDto } from '../../preferences/dto/preferences.dto.js';
import type {
  InboxBulkPreferencesDto,
  InboxGlobalPreferencesDto,
  InboxPreferenceDto,
  InboxPreferencesQueryDto,
} from '../dto/inbox-preferences.dto.js';
import { CHANNELS, DomainError } from '#common';

/** The flat channel fields of an inbox body (its other fields are not channels). */
function channelsOf(body: ChannelPreferencesDto): Record<string, boolean> {
  return channelChoices(Object.fromEntries(CHANNELS.map((channel) => [channel, body[channel]])));
}

/**
 * The inbox's preferences: a `global` entry (with the schedule) followed by one `template` entry per
 * workflow. Writes go through the subscriber preferences use cases, so they are the same preferences
 * `GET /v2/subscribers/{id}/preferences` answers.
 */
@Injectable()
export class InboxPreferencesUseCase {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly preferences: PreferenceRepository,
    private readonly writer: PreferenceWriter,
  ) {}

  async list(session: InboxSession, query: InboxPreferencesQueryDto): Promise<InboxPreferenceDto[]> {
    const [workflows, rows] = await Promise.all([this.workflows.listActive(session.environmentId), this.rows(session)]);
    const criticality = query.criticality ?? 'nonCritical';
    const wanted = workflows.filter(
      (workflow) =>
        (criticality === 'all' || workflow.critical === (criticality === 'critical')) &&
        (!query.tags?.length || workflow.tags.some((tag) => query.tags?.includes(tag))) &&
        (!query.severity?.length || query.severity.includes('none')),
    );
    return [globalEntry(rows), ...wanted.map((workflow) => toWorkflowPreferenceResult(workflow, rows))];
  }

  async global(session: InboxSession): Promise<InboxPreferenceDto> {
    return globalEntry(await this.rows(session));
  }

  async updateGlobal(session: InboxSession, body: InboxGlobalPreferencesDto): Promise<InboxPreferenceDto> {
    const schedule = parseSchedule(body.schedule);
    await this.writer.updateGlobal(session, session.subscriberRowId, channelsOf(body), schedule);
    return this.global(session);
  }

  async updateWorkflow(
    session: InboxSession,
    workflowId: string,
    body: ChannelPreferencesDto,
  ): Promise<InboxPreferenceDto> {
    const [result] = await this.writer.updateWorkflows(session, session.subscriberRowId, [
      { workflowId, channels: channelsOf(body) },
    ]);
    return result;
  }

  async updateMany(session: InboxSession, body: InboxBulkPreferencesDto): Promise<InboxPreferenceDto[]> {
    if (body.preferences.some((item) => item.subscriptionIdentifier !== undefined))
      throw new DomainError('BAD_REQUEST', 'Per-subscription workflow preferences are not supported');
    const items = body.preferences.map((item) => ({ workflowId: item.workflowId, channels: channelsOf(item) }));
    return this.writer.updateWorkflows(session, session.subscriberRowId, items);
  }

  private rows(session: InboxSession): Promise<PreferenceRow[]> {
    return this.preferences.findForSubscriber(session.environmentId, session.subscriberRowId);
  }
}

function globalEntry(rows: PreferenceRow[]): InboxPreferenceDto {
  const global = rows.find((row) => row.workflowId === null);
  return {
    level: 'global',
    enabled: true,
    channels: resolveGlobalChannels(global?.channels),
    ...(global?.schedule ? { schedule: global.schedule } : {}),
  };
}
