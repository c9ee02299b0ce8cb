import { Injectable } from '@nestjs/common';
import { DomainError, type FieldErrors } from '#common';
import { PreferenceRepository, WorkflowRepository } from '#dal';
import { normalizeSchedule, validateSchedule, type Schedule } from '#application';
import type { TenantScope } from '../../auth/auth-context.js';
import { validationFailed } from '../../http/validation.js';
import type { PatchPreferencesDto, PreferencesResponseDto } from '../dto/preferences.dto.js';
import { PreferencesResponseBuilder } from './preferences-response.builder.js';

/**
 * PATCH /v2/subscribers/{subscriberId}/preferences (BEHAVIOR §7). A global change leaves the
 * per-workflow choices alone: they are more specific and keep winning.
 */
@Injectable()
export class UpdateSubscriberPreferencesUseCase {
  constructor(
    private readonly response: PreferencesResponseBuilder,
    private readonly workflows: WorkflowRepository,
    private readonly preferences: PreferenceRepository,
  ) {}

  async execute(auth: TenantScope, subscriberId: string, body: PatchPreferencesDto): Promise<PreferencesResponseDto> {
    const schedule = checkSchedule(body.schedule);
    const subscriber = await this.response.findSubscriber(auth.environmentId, subscriberId);
    const workflowId =
      body.workflowId === undefined ? null : await this.resolveWorkflow(auth.environmentId, body.workflowId);
    const channels = Object.fromEntries(
      Object.entries(body.channels ?? {}).filter(([, value]) => typeof value === 'boolean'),
    );
    // The schedule belongs to the global preference; with a workflowId it is ignored (as in Novu).
    const scheduleChange = workflowId === null ? schedule : undefined;
    if (Object.keys(channels).length > 0 || scheduleChange !== undefined) {
      await this.preferences.upsert(auth, subscriber.id, workflowId, channels, scheduleChange);
    }
    return this.response.build(auth.environmentId, subscriber, 'nonCritical');
  }

  private async resolveWorkflow(environmentId: string, key: string): Promise<string> {
    const workflow = await this.workflows.findByIdOrIdentifier(environmentId, key);
    if (!workflow) throw new DomainError('WORKFLOW_NOT_FOUND', `Workflow ${key} cannot be found`);
    if (workflow.critical)
      throw new DomainError('CRITICAL_WORKFLOW', `Critical workflow with id: ${key} can not be updated`);
    return workflow.id;
  }
}

/** undefined: leave the stored schedule; null: remove it; otherwise the validated schedule. */
export function checkSchedule(value: unknown): Schedule | null | undefined {
  if (value === undefined || value === null) return value;
  const issues = validateSchedule(value, 'schedule');
  if (issues.length > 0) {
    const fieldErrors: FieldErrors = {};
    for (const issue of issues) {
      const entry = (fieldErrors[issue.path] ??= { messages: [], value: issue.value });
      entry.messages.push(issue.message);
    }
    throw validationFailed(fieldErrors);
  }
  return normalizeSchedule(value as Schedule);
}
