import { Injectable } from '@nestjs/common';
import { MessageRepository, SubscriberRepository, type MessageView } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { Page } from '../../http/pagination.dto.js';
import type { FeedQueryDto, UnseenCountQueryDto } from '../dto/subscriber-v1.dto.js';
import { notFound } from '../subscribers.service.js';

const DEFAULT_COUNT_LIMIT = 100;

/** The in-app feed and its unseen counter, as a client shows them before marking. */
@Injectable()
export class SubscriberFeedUseCase {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly messages: MessageRepository,
  ) {}

  async feed(auth: AuthContext, subscriberId: string, query: FeedQueryDto): Promise<Page<MessageView>> {
    const subscriber = await this.subscribers.findBySubscriberId(auth.environmentId, subscriberId);
    if (!subscriber) throw notFound(subscriberId);
    const { rows, hasMore } = await this.messages.feed(
      auth.environmentId,
      subscriber.id,
      query,
      query.page,
      query.limit,
    );
    return { data: rows, page: query.page, pageSize: query.limit, hasMore };
  }

  /** Novu's counter: unseen messages unless `seen` is true, counted up to `limit` (default 100). */
  async count(auth: AuthContext, subscriberId: string, query: UnseenCountQueryDto): Promise<number> {
    const subscriber = await this.subscribers.findBySubscriberId(auth.environmentId, subscriberId);
    if (!subscriber) throw notFound(subscriberId);
    return this.messages.countBySeen(
      auth.environmentId,
      subscriber.id,
      query.seen ?? false,
      query.limit ?? DEFAULT_COUNT_LIMIT,
    );
  }
}
