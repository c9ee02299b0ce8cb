import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Clock, DomainError, isId, LOGGER, newId } from '#common';
import {
  EnvironmentContentRepository,
  EnvironmentRepository,
  isDatabaseUnavailable,
  translationsKey,
  type Environment,
  type EnvironmentContent,
  type NewWebhookEvent,
  type PublishWriter,
  type StoredStep,
  type WorkflowRow,
  type WorkflowValues,
} from '#dal';
import { webhookEvent } from '../webhooks/webhook-event.js';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { TranslationCache } from '../translations/translation-cache.js';
import { WorkflowCache } from '../workflows/workflow-cache.js';
import { toWorkflowV2Response } from '../workflows/workflow-v2-response.js';
import { diffEnvironments, type ResourceDiff } from './environment-diff.js';
import {
  nameOf,
  rolledBack,
  selectChanges,
  STATUS_OF,
  type PublishOutcome,
  type PublishRequest,
} from './publish-plan.js';

export interface EnvironmentDiffResult {
  source: Environment;
  target: Environment;
  resources: ResourceDiff[];
}

/** Thrown inside the publish transaction so it rolls back, naming the resource whose write failed. */
class PublishAborted extends Error {
  constructor(
    readonly diff: ResourceDiff,
    override readonly cause: unknown,
  ) {
    super(`publishing ${diff.kind} ${diff.key} failed`);
  }
}

/** The source's steps under the target's step ids, position by position (new positions get new ids). */
function withTargetStepIds(source: StoredStep[], target: StoredStep[]): StoredStep[] {
  return source.map((step, index) => {
    const { _parentId: _ignored, variants, ...rest } = step;
    const id = target[index]?._id ?? newId();
    const copy: StoredStep = { ...rest, _id: id, _templateId: id };
    if (variants) copy.variants = withTargetStepIds(variants, target[index]?.variants ?? []);
    return copy;
  });
}

function workflowValues(source: WorkflowRow, target: WorkflowRow | undefined, groupId: string): WorkflowValues {
  return {
    identifier: source.identifier,
    name: source.name,
    description: source.description,
    active: source.active,
    draft: source.draft,
    critical: source.critical,
    preferenceSettings: source.preferenceSettings,
    tags: source.tags,
    steps: withTargetStepIds(source.steps, target?.steps ?? []),
    data: source.data,
    origin: source.origin,
    payloadSchema: source.payloadSchema,
    validatePayload: source.validatePayload,
    isTranslationEnabled: source.isTranslationEnabled,
    preferences: source.preferences,
    notificationGroupId: groupId,
    creatorId: target ? target.creatorId : source.creatorId,
  };
}

/** Compares two environments of one organization and publishes one into the other in one transaction. */
@Injectable()
export class EnvironmentSyncService {
  constructor(
    private readonly environments: EnvironmentRepository,
    private readonly content: EnvironmentContentRepository,
    private readonly cache: WorkflowCache,
    private readonly translations: TranslationCache,
    private readonly clock: Clock,
    private readonly outbox: WebhookOutbox,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The organization's environment; any other id (another organization's, malformed) is a 404. */
  async environmentOf(organizationId: string, id: string): Promise<Environment> {
    const environment = isId(id) ? await this.environments.findOrganizationEnvironment(organizationId, id) : undefined;
    if (!environment) throw new DomainError('NOT_FOUND', `Environment ${id} not found`);
    return environment;
  }

  async diff(organizationId: string, targetId: string, sourceId?: string): Promise<EnvironmentDiffResult> {
    const { source, target } = await this.pair(organizationId, targetId, sourceId);
    const [sourceContent, targetContent] = await this.contents(source, target);
    return { source, target, resources: diffEnvironments(sourceContent, targetContent) };
  }

  /**
   * Applies the changes (all, or the resources named) in one transaction; a dry run only reports
   * them. When one write fails nothing is applied: that resource is reported failed, the others skipped.
   */
  async publish(
    organizationId: string,
    publisherId: string,
    targetId: string,
    request: PublishRequest,
  ): Promise<PublishOutcome[]> {
    const { source, target } = await this.pair(organizationId, targetId, request.sourceEnvironmentId);
    const [sourceContent, targetContent] = await this.contents(source, target);
    const { selected, unmatched } = selectChanges(diffEnvironments(sourceContent, targetContent), request.resources);
    const planned = selected.map((diff) => ({
      kind: diff.kind,
      key: diff.key,
      name: nameOf(diff),
      status: STATUS_OF[diff.action],
    }));
    if (request.dryRun || selected.length === 0) return [...planned, ...unmatched];
    try {
      const now = this.clock.now();
      const recorded = await this.content.publish({ environmentId: target.id, organizationId }, async (writer) => {
        const events: NewWebhookEvent[] = [];
        for (const diff of selected) {
          try {
            const row = await this.apply(writer, diff, sourceContent, publisherId, now);
            if (row) events.push(workflowPublishEvent(diff, row, now));
          } catch (error) {
            throw new PublishAborted(diff, error);
          }
        }
        return this.outbox.record(writer.tx, target.id, events, now);
      });
      void this.outbox.dispatch(target.id, recorded);
    } catch (error) {
      if (!(error instanceof PublishAborted)) throw error;
      if (isDatabaseUnavailable(error.cause)) throw error.cause;
      this.logger.warn({ err: error.cause, targetEnvironmentId: target.id }, error.message);
      return [...rolledBack(selected, error.diff), ...unmatched];
    } finally {
      this.cache.invalidate(target.id);
      this.translations.invalidate(target.id);
    }
    return [...planned, ...unmatched];
  }

  private async pair(
    organizationId: string,
    targetId: string,
    sourceId: string | undefined,
  ): Promise<{ source: Environment; target: Environment }> {
    const target = await this.environmentOf(organizationId, targetId);
    const source =
      sourceId !== undefined
        ? await this.environmentOf(organizationId, sourceId)
        : await this.environments.findEnvironmentByName('Development', organizationId);
    if (!source) throw new DomainError('NOT_FOUND', 'Environment Development not found');
    if (source.id === target.id)
      throw DomainError.validation(
        'sourceEnvironmentId',
        'The source and the target are the same environment',
        sourceId ?? source.id,
      );
    return { source, target };
  }

  private contents(source: Environment, target: Environment): Promise<[EnvironmentContent, EnvironmentContent]> {
    return Promise.all([this.content.contentOf(source.id), this.content.contentOf(target.id)]);
  }

  private async apply(
    writer: PublishWriter,
    diff: ResourceDiff,
    sourceContent: EnvironmentContent,
    publisherId: string,
    now: Date,
  ): Promise<WorkflowRow | undefined> {
    // A resource carries its translations: the target's become the source's (none when it is deleted).
    await writer.replaceTranslations(
      { resourceType: diff.kind, resourceId: diff.key },
      sourceContent.translations.get(translationsKey({ resourceType: diff.kind, resourceId: diff.key })) ?? {},
    );
    if (diff.kind === 'layout') {
      if (diff.action === 'deleted') await writer.softDeleteLayout(diff.target!.id);
      else {
        const { layoutId, name, isDefault, controlValues, isTranslationEnabled } = diff.source!;
        await writer.upsertLayout(diff.target?.id, { layoutId, name, isDefault, controlValues, isTranslationEnabled });
      }
      return undefined;
    }
    if (diff.action === 'deleted') return writer.softDeleteWorkflow(diff.target!.id, publisherId, now);
    const source = diff.source!;
    // The target's own group of the same name (created there on first use): group ids differ per environment.
    const groupId = await writer.groupId(sourceContent.groupNames.get(source.notificationGroupId) ?? 'General');
    const values = workflowValues(source, diff.target, groupId);
    if (diff.target) return writer.updateWorkflow(diff.target.id, values);
    return writer.insertWorkflow(values);
  }
}

/** A published workflow in its new environment is workflow.published; one removed there, workflow.deleted. */
function workflowPublishEvent(diff: ResourceDiff, row: WorkflowRow, now: Date): NewWebhookEvent {
  return webhookEvent(
    diff.action === 'deleted' ? 'workflow.deleted' : 'workflow.published',
    { ...toWorkflowV2Response(row) },
    now,
  );
}
