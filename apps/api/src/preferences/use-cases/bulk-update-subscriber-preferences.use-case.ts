import { Injectable } from '@nestjs/common';
import { channelChoices, PreferenceWriter } from '#application';
import type { AuthContext } from '../../auth/auth-context.js';
import type { BulkPatchPreferencesDto, WorkflowPreferenceResultDto } from '../dto/bulk-preferences.dto.js';
import { PreferencesResponseBuilder } from './preferences-response.builder.js';

/**
 * PATCH /v2/subscribers/{subscriberId}/preferences/bulk: the per-workflow form of the preferences
 * PATCH for up to 100 workflows; an unknown or critical one changes nothing.
 */
@Injectable()
export class BulkUpdateSubscriberPreferencesUseCase {
  constructor(
    private readonly response: PreferencesResponseBuilder,
    private readonly writer: PreferenceWriter,
  ) {}

  async execute(
    auth: AuthContext,
    subscriberId: string,
    body: BulkPatchPreferencesDto,
  ): Promise<WorkflowPreferenceResultDto[]> {
    const subscriber = await this.response.findSubscriber(auth.environmentId, subscriberId);
    const items = body.preferences.map((item) => ({
      workflowId: item.workflowId,
      channels: channelChoices(item.channels),
    }));
    return this.writer.updateWorkflows(auth, subscriber.id, items);
  }
}
