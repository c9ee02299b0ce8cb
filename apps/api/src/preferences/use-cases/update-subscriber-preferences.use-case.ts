import { Injectable } from '@nestjs/common';
import { channelChoices, parseSchedule, PreferenceWriter } from '#application';
import type { AuthContext } from '../../auth/auth-context.js';
import type { PatchPreferencesDto, PreferencesResponseDto } from '../dto/preferences.dto.js';
import { PreferencesResponseBuilder } from './preferences-response.builder.js';

/**
 * PATCH /v2/subscribers/{subscriberId}/preferences (BEHAVIOR §7): global, or one workflow with
 * workflowId. The schedule belongs to the global preference; with a workflowId it is ignored (as in Novu).
 */
@Injectable()
export class UpdateSubscriberPreferencesUseCase {
  constructor(
    private readonly response: PreferencesResponseBuilder,
    private readonly writer: PreferenceWriter,
  ) {}

  async execute(auth: AuthContext, subscriberId: string, body: PatchPreferencesDto): Promise<PreferencesResponseDto> {
    const schedule = parseSchedule(body.schedule);
    const subscriber = await this.response.findSubscriber(auth.environmentId, subscriberId);
    const channels = channelChoices(body.channels);
    if (body.workflowId === undefined) await this.writer.updateGlobal(auth, subscriber.id, channels, schedule);
    else await this.writer.updateWorkflows(auth, subscriber.id, [{ workflowId: body.workflowId, channels }]);
    return this.response.build(auth.environmentId, subscriber, 'nonCritical');
  }
}
