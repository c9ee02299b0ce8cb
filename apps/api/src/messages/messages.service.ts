import { Injectable } from '@nestjs/common';
import { Clock, DomainError, isId } from '#common';
import { messageEvents, RealtimePublisher, WebhookOutbox } from '#application';
import {
  MessageRepository,
  SubscriberRepository,
  type DbExecutor,
  type DeletedMessage,
  type MessageRow,
  type MessageView,
} from '#dal';
import type { AuthContext } from '../auth/auth-context.js';
import type { Page } from '../http/pagination.dto.js';
import type { ListMessagesQueryDto } from './dto/message.dto.js';

@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly realtime: RealtimePublisher,
    private readonly outbox: WebhookOutbox,
    private readonly clock: Clock,
  ) {}

  async list(auth: AuthContext, query: ListMessagesQueryDto): Promise<Page<MessageView>> {
    const empty = { data: [], page: query.page, pageSize: query.limit, hasMore: false };
    let subscriberId: string | undefined;
    if (query.subscriberId !== undefined) {
      const subscriber = await this.subscribers.findBySubscriberId(auth.environmentId, query.subscriberId);
      if (!subscriber) return empty;
      subscriberId = subscriber.id;
    }
    const { rows, hasMore } = await this.messages.list(
      auth.environmentId,
      { subscriberId, channel: query.channel, transactionId: query.transactionId, contextKeys: query.contextKeys },
      query.page,
      query.limit,
    );
    return { data: rows, page: query.page, pageSize: query.limit, hasMore };
  }

  async delete(auth: AuthContext, messageId: string): Promise<void> {
    if (!isId(messageId)) throw DomainError.validation('messageId', 'messageId must be a UUID', messageId);
    const deleted = await this.withDeletedEvents(auth, (tx) =>
      this.messages.softDelete(auth.environmentId, messageId, tx),
    );
    if (deleted.length === 0) throw new DomainError('MESSAGE_NOT_FOUND', `Message ${messageId} not found`);
    this.inboxesChanged(auth, deleted);
  }

  async deleteByTransaction(auth: AuthContext, transactionId: string, channel?: string): Promise<void> {
    const deleted = await this.withDeletedEvents(auth, (tx) =>
      this.messages.softDeleteByTransaction(auth.environmentId, transactionId, channel, tx),
    );
    if (deleted.length === 0) {
      throw new DomainError('MESSAGE_NOT_FOUND', `No messages found for transaction ${transactionId}`);
    }
    this.inboxesChanged(auth, deleted);
  }

  /** A delete committed with a message.deleted event per message. */
  private withDeletedEvents(
    auth: AuthContext,
    remove: (tx: DbExecutor) => Promise<MessageRow[]>,
  ): Promise<MessageRow[]> {
    const now = this.clock.now();
    return this.outbox.commitWithEvents(auth.environmentId, now, remove, (rows) =>
      messageEvents('message.deleted', rows, now),
    );
  }

  /** Deleted in-app messages leave their subscribers' badge counts. */
  private inboxesChanged(auth: AuthContext, deleted: DeletedMessage[]): void {
    this.realtime.countsChangedFor(
      auth.environmentId,
      deleted.filter((message) => message.channel === 'in_app'),
    );
  }
}
