import { Injectable } from '@nestjs/common';
import { DomainError, type Channel } from '#common';
import { resolveGlobalChannels } from '#application';
import { PreferenceRepository, WorkflowRepository, type PreferenceRow } from '#dal';
import type { InboxSession } from '../session-token.js';
import type { ChannelPreferencesDto } from '../../preferences/dto/preferences.dto.js';
import { BulkUpdateSubscriberPreferencesUseCase } from '../../preferences/use-cases/bulk-update-subscriber-preferences.use-case.js';
import { UpdateSubscriberPreferencesUseCase } from '../../preferences/use-cases/update-subscriber-preferences.use-case.js';
import { toWorkflowPreferenceResult } from '../../preferences/use-cases/workflow-preference-result.js';
import type {
  InboxBulkPreferencesDto,
  InboxGlobalPreferencesDto,
  InboxPreferenceDto,
  InboxPreferencesQueryDto,
} from '../dto/inbox-preferences.dto.js';

const CHANNEL_KEYS = ['email', 'sms', 'in_app', 'chat', 'push'] as const satisfies readonly Channel[];

function channelsOf(body: ChannelPreferencesDto): ChannelPreferencesDto {
  return Object.fromEntries(
    CHANNEL_KEYS.filter((key) => typeof body[key] === 'boolean').map((key) => [key, body[key]]),
  );
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
    private readonly update: UpdateSubscriberPreferencesUseCase,
    private readonly bulk: BulkUpdateSubscriberPreferencesUseCase,
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
    await this.update.execute(session, session.subscriberId, { channels: channelsOf(body), schedule: body.schedule });
    return this.global(session);
  }

  async updateWorkflow(
    session: InboxSession,
    workflowId: string,
    body: ChannelPreferencesDto,
  ): Promise<InboxPreferenceDto> {
    await this.update.execute(session, session.subscriberId, { channels: channelsOf(body), workflowId });
    const workflow = await this.workflows.findByIdOrIdentifier(session.environmentId, workflowId);
    if (!workflow) throw new DomainError('WORKFLOW_NOT_FOUND', `Workflow ${workflowId} cannot be found`);
    return toWorkflowPreferenceResult(workflow, await this.rows(session));
  }

  async updateMany(session: InboxSession, body: InboxBulkPreferencesDto): Promise<InboxPreferenceDto[]> {
    if (body.preferences.some((item) => item.subscriptionIdentifier !== undefined))
      throw new DomainError('BAD_REQUEST', 'Per-subscription workflow preferences are not supported');
    return this.bulk.execute(session, session.subscriberId, {
      preferences: body.preferences.map((item) => ({ workflowId: item.workflowId, channels: channelsOf(item) })),
    });
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
