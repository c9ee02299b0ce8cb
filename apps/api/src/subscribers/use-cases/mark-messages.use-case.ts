import { Injectable } from '@nestjs/common';
import { Clock } from '#common';
import { MessageRepository, SubscriberRepository, type MarkAs, type MessageView } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import { notFound } from '../subscribers.service.js';

/** Operation 3 (BEHAVIOR §3): only this subscriber's in-app messages; other ids drop out of the result. */
@Injectable()
export class MarkMessagesUseCase {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly messages: MessageRepository,
    private readonly clock: Clock,
  ) {}

  async execute(
    auth: AuthContext,
    subscriberId: string,
    messageId: string | string[],
    markAs: MarkAs,
  ): Promise<MessageView[]> {
    const subscriber = await this.subscribers.findBySubscriberId(auth.environmentId, subscriberId);
    if (!subscriber) throw notFound(subscriberId);
    const ids = [...new Set(Array.isArray(messageId) ? messageId : [messageId])];
    return this.messages.markAs(auth.environmentId, subscriber.id, ids, markAs, this.clock.now());
  }
}
