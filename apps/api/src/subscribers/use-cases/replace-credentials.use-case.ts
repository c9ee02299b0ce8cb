import { Injectable } from '@nestjs/common';
import { SubscriberRepository, type SubscriberRow } from '#dal';
import { SubscriberChannelsResolver } from '#application';
import type { AuthContext } from '../../auth/auth-context.js';
import type { UpdateCredentialsDto } from '../dto/subscriber-v1.dto.js';
import { notFound } from '../subscribers.service.js';

/**
 * PUT credentials: the provider entry's credentials become exactly the ones sent, where the PATCH
 * merges them key by key (Novu's PUT is the idempotent form of the same update).
 */
@Injectable()
export class ReplaceCredentialsUseCase {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly channels: SubscriberChannelsResolver,
  ) {}

  async replace(auth: AuthContext, subscriberId: string, body: UpdateCredentialsDto): Promise<SubscriberRow> {
    if (!(await this.subscribers.findBySubscriberId(auth.environmentId, subscriberId))) throw notFound(subscriberId);
    const [entry] = await this.channels.resolve(auth.environmentId, [body]);
    const row = await this.subscribers.replaceChannel(auth.environmentId, subscriberId, entry);
    if (!row) throw notFound(subscriberId);
    return row;
  }

  /** Removes every entry of the provider; a provider without entries is not an error (as in Novu). */
  async remove(auth: AuthContext, subscriberId: string, providerId: string): Promise<void> {
    if (!(await this.subscribers.removeChannels(auth.environmentId, subscriberId, providerId)))
      throw notFound(subscriberId);
  }
}
