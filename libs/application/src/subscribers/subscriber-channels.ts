import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { IntegrationRepository, type StoredChannelSettings } from '#dal';

/** The credentials form of a channel entry, as clients send it. */
export interface ChannelSettingsInput {
  providerId: string;
  integrationIdentifier?: string;
  credentials: StoredChannelSettings['credentials'];
}

export const MAX_DEVICE_TOKENS = 100;

/**
 * Turns client channel entries into stored ones: each is bound to the environment's active
 * integration of its provider (BEHAVIOR §1), device tokens de-duplicated and capped.
 */
@Injectable()
export class SubscriberChannelsResolver {
  constructor(private readonly integrations: IntegrationRepository) {}

  async resolve(environmentId: string, inputs: ChannelSettingsInput[]): Promise<StoredChannelSettings[]> {
    return Promise.all(
      inputs.map((input, index) =>
        this.resolveOne(environmentId, input, inputs.length > 1 ? `channels[${index}]` : undefined),
      ),
    );
  }

  private async resolveOne(
    environmentId: string,
    input: ChannelSettingsInput,
    path?: string,
  ): Promise<StoredChannelSettings> {
    const credentials = { ...input.credentials };
    if (credentials.deviceTokens) {
      credentials.deviceTokens = [...new Set(credentials.deviceTokens)];
      if (credentials.deviceTokens.length > MAX_DEVICE_TOKENS) {
        const field = path ? `${path}.credentials.deviceTokens` : 'credentials.deviceTokens';
        throw DomainError.validation(
          field,
          `deviceTokens must contain no more than ${MAX_DEVICE_TOKENS} tokens`,
          credentials.deviceTokens.length,
        );
      }
    }
    const integration = await this.integrations.findActiveByProvider(
      environmentId,
      input.providerId,
      input.integrationIdentifier,
    );
    if (!integration) {
      const which = input.integrationIdentifier ? ` with identifier ${input.integrationIdentifier}` : '';
      throw new DomainError(
        'NO_ACTIVE_INTEGRATION',
        `The environment has no active ${input.providerId} integration${which}`,
      );
    }
    return {
      providerId: input.providerId,
      ...(input.integrationIdentifier ? { integrationIdentifier: input.integrationIdentifier } : {}),
      _integrationId: integration.id,
      credentials,
    };
  }
}
