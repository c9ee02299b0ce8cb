import { Injectable } from '@nestjs/common';
import { SubscriberRepository, type SubscriberRow } from '#dal';
import { SubscriberChannelsResolver } from '#application';
import type { AuthContext } from '../../auth/auth-context.js';
import type { UpdateCredentialsDto } from '../dto/subscriber-v1.dto.js';
import { notFound } from '../subscribers.service.js';

/** Operation 1 (BEHAVIOR §1): bind the entry to an active integration, then merge it in one UPDATE. */
@Injectable()
export class UpdateCredentialsUseCase {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly channels: SubscriberChannelsResolver,
  ) {}

  async execute(auth: AuthContext, subscriberId: string, body: UpdateCredentialsDto): Promise<SubscriberRow> {
    if (!(await this.subscribers.findBySubscriberId(auth.environmentId, subscriberId))) throw notFound(subscriberId);
    const [entry] = await this.channels.resolve(auth.environmentId, [body]);
    const row = await this.subscribers.mergeChannel(auth.environmentId, subscriberId, entry);
    if (!row) throw notFound(subscriberId);
    return row;
  }
}
