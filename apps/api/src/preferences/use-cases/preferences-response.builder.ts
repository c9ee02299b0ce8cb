import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { PreferenceRepository, SubscriberRepository, WorkflowRepository, type SubscriberRow } from '#dal';
import { resolveGlobalChannels, resolveWorkflowPreferences, slugify } from '#application';
import type { Criticality, PreferencesResponseDto } from '../dto/preferences.dto.js';

/** The PreferencesResponse both operations answer with (BEHAVIOR §6). */
@Injectable()
export class PreferencesResponseBuilder {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly workflows: WorkflowRepository,
    private readonly preferences: PreferenceRepository,
  ) {}

  async findSubscriber(environmentId: string, subscriberId: string): Promise<SubscriberRow> {
    const subscriber = await this.subscribers.findBySubscriberId(environmentId, subscriberId);
    if (!subscriber) throw new DomainError('SUBSCRIBER_NOT_FOUND', `Subscriber with id: ${subscriberId} not found`);
    return subscriber;
  }

  async build(
    environmentId: string,
    subscriber: SubscriberRow,
    criticality: Criticality,
  ): Promise<PreferencesResponseDto> {
    const [workflows, rows] = await Promise.all([
      this.workflows.listActive(environmentId),
      this.preferences.findForSubscriber(environmentId, subscriber.id),
    ]);
    const global = rows.find((row) => row.workflowId === null);
    const perWorkflow = new Map(
      rows.filter((row) => row.workflowId !== null).map((row) => [row.workflowId, row.channels]),
    );
    const wanted = workflows.filter(
      (workflow) => criticality === 'all' || workflow.critical === (criticality === 'critical'),
    );
    return {
      global: {
        enabled: true,
        channels: resolveGlobalChannels(global?.channels),
        ...(global?.schedule ? { schedule: global.schedule } : {}),
      },
      workflows: wanted.map((workflow) => ({
        ...resolveWorkflowPreferences(workflow, { global: global?.channels, workflow: perWorkflow.get(workflow.id) }),
        workflow: {
          slug: slugify(workflow.name),
          identifier: workflow.identifier,
          name: workflow.name,
          updatedAt: workflow.updatedAt.toISOString(),
        },
      })),
    };
  }
}
