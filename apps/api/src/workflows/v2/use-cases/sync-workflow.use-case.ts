import { Injectable } from '@nestjs/common';
import {
  stepIdOf,
  toWorkflowV2Response,
  WorkflowCache,
  WorkflowWriter,
  type StepInput,
  type WorkflowInput,
  type WorkflowV2Response,
} from '#application';
import { DomainError, isId } from '#common';
import { EnvironmentRepository, WorkflowRepository, type StoredStep, type WorkflowRow } from '#dal';
import type { AuthContext } from '../../../auth/auth-context.js';
import { WorkflowsV2Service } from '../workflows-v2.service.js';

/**
 * Copies one workflow into another environment of the caller's organization, creating it there or
 * replacing the workflow of the same workflowId (whose step ids are kept by stepId). The copy is
 * written through WorkflowWriter, so the target holds it to the same rules.
 */
@Injectable()
export class SyncWorkflowUseCase {
  constructor(
    private readonly workflowsV2: WorkflowsV2Service,
    private readonly workflows: WorkflowRepository,
    private readonly environments: EnvironmentRepository,
    private readonly writer: WorkflowWriter,
    private readonly cache: WorkflowCache,
  ) {}

  async execute(auth: AuthContext, key: string, targetEnvironmentId: string): Promise<WorkflowV2Response> {
    const source = await this.workflowsV2.find(auth.environmentId, key);
    const target = isId(targetEnvironmentId)
      ? await this.environments.findEnvironmentById(targetEnvironmentId)
      : undefined;
    // Another organization's environment is answered like one that does not exist.
    if (!target || target.organizationId !== auth.organizationId)
      throw new DomainError('NOT_FOUND', `Environment ${targetEnvironmentId} not found`);
    if (target.id === auth.environmentId)
      throw DomainError.validation(
        'targetEnvironmentId',
        'targetEnvironmentId must be another environment than the source',
        targetEnvironmentId,
      );
    const scope = { environmentId: target.id, organizationId: target.organizationId };
    const existing = await this.workflows.findByIdentifier(target.id, source.identifier);
    const copy = copyOf(source, existing);
    const { row } = existing
      ? await this.writer.update(scope, existing, copy)
      : await this.writer.create(scope, auth.actorId, copy);
    this.cache.invalidate(target.id);
    return toWorkflowV2Response(row);
  }
}

/** A stored step as the writer takes it, keeping the id of the target's step of the same stepId. */
function asInput(step: StoredStep, kept: StoredStep | undefined): StepInput {
  return {
    ...step,
    _id: kept?._id,
    filters: step.filters as object[],
    variants: step.variants?.map((variant) => ({ ...asInput(variant, undefined), variants: undefined })),
  };
}

function copyOf(source: WorkflowRow, existing: WorkflowRow | undefined): WorkflowInput {
  return {
    name: source.name,
    identifier: source.identifier,
    description: source.description,
    active: source.active,
    draft: source.draft,
    critical: source.critical,
    preferenceSettings: source.preferenceSettings,
    tags: source.tags,
    data: source.data ?? undefined,
    origin: source.origin as WorkflowInput['origin'],
    payloadSchema: source.payloadSchema,
    validatePayload: source.validatePayload,
    preferences: source.preferences,
    steps: source.steps.map((step) =>
      asInput(
        step,
        existing?.steps.find((old) => stepIdOf(old) === stepIdOf(step)),
      ),
    ),
  };
}
