import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../auth/auth-context.js';
import type { Criticality, PreferencesResponseDto } from '../dto/preferences.dto.js';
import { PreferencesResponseBuilder } from './preferences-response.builder.js';

/** GET /v2/subscribers/{subscriberId}/preferences. */
@Injectable()
export class GetSubscriberPreferencesUseCase {
  constructor(private readonly response: PreferencesResponseBuilder) {}

  async execute(
    auth: AuthContext,
    subscriberId: string,
    criticality: Criticality = 'nonCritical',
  ): Promise<PreferencesResponseDto> {
    const subscriber = await this.response.findSubscriber(auth.environmentId, subscriberId);
    return this.response.build(auth.environmentId, subscriber, criticality);
  }
}
