import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { PreferenceRepository, WorkflowRepository, type WorkflowRow } from '#dal';
import type { TenantScope } from '../../auth/auth-context.js';
import type { BulkPatchPreferencesDto, WorkflowPreferenceResultDto } from '../dto/bulk-preferences.dto.js';
import { PreferencesResponseBuilder } from './preferences-response.builder.js';
import { toWorkflowPreferenceResult } from './workflow-preference-result.js';

/**
 * PATCH /v2/subscribers/{subscriberId}/preferences/bulk: the per-workflow form of the preferences
 * PATCH for up to 100 workflows. Every workflow is resolved before anything is written, so an
 * unknown or critical one changes nothing.
 */
@Injectable()
export class BulkUpdateSubscriberPreferencesUseCase {
  constructor(
    private readonly response: PreferencesResponseBuilder,
    private readonly workflows: WorkflowRepository,
    private readonly preferences: PreferenceRepository,
  ) {}

  async execute(
    auth: TenantScope,
    subscriberId: string,
    body: BulkPatchPreferencesDto,
  ): Promise<WorkflowPreferenceResultDto[]> {
    const subscriber = await this.response.findSubscriber(auth.environmentId, subscriberId);
    const resolved = await Promise.all(
      body.preferences.map((item) => this.findWorkflow(auth.environmentId, item.workflowId)),
    );
    // In order: a workflow named twice ends with its last entry's channels.
    for (const [index, item] of body.preferences.entries()) {
      const channels = Object.fromEntries(
        Object.entries(item.channels).filter(([, value]) => typeof value === 'boolean'),
      );
      if (Object.keys(channels).length > 0)
        await this.preferences.upsert(auth, subscriber.id, resolved[index].id, channels);
    }
    const rows = await this.preferences.findForSubscriber(auth.environmentId, subscriber.id);
    const unique = [...new Map(resolved.map((workflow) => [workflow.id, workflow])).values()];
    return unique.map((workflow) => toWorkflowPreferenceResult(workflow, rows));
  }

  private async findWorkflow(environmentId: string, key: string): Promise<WorkflowRow> {
    const workflow = await this.workflows.findByIdOrIdentifier(environmentId, key);
    if (!workflow) throw new DomainError('WORKFLOW_NOT_FOUND', `Workflow ${key} cannot be found`);
    if (workflow.critical)
      throw new DomainError('CRITICAL_WORKFLOW', `Critical workflow with id: ${key} can not be updated`);
    return workflow;
  }
}
