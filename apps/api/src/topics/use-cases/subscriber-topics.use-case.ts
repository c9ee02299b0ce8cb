import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { SubscriberRepository, TopicRepository } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import { toCursorPage } from '../../http/cursor-page.js';
import type { SubscriberTopicsPageDto, SubscriberTopicsQueryDto } from '../dto/subscriber-topics.dto.js';
import { toSubscription } from '../subscription-response.js';

/** GET /v2/subscribers/{subscriberId}/subscriptions: the topics a subscriber belongs to, as subscriptions. */
@Injectable()
export class SubscriberTopicsUseCase {
  constructor(
    private readonly topics: TopicRepository,
    private readonly subscribers: SubscriberRepository,
  ) {}

  async list(
    auth: AuthContext,
    subscriberId: string,
    query: SubscriberTopicsQueryDto,
  ): Promise<SubscriberTopicsPageDto> {
    const subscriber = await this.subscribers.findBySubscriberId(auth.environmentId, subscriberId);
    if (!subscriber) throw new DomainError('SUBSCRIBER_NOT_FOUND', `Subscriber ${subscriberId} not found`);
    const filter = { key: query.key };
    const [{ rows, hasMore }, count] = await Promise.all([
      this.topics.listSubscriberTopics(auth.environmentId, subscriber.id, filter, query),
      this.topics.countSubscriberTopics(auth.environmentId, subscriber.id, filter),
    ]);
    // The cursor is the topic's id, as in the topic list.
    const page = toCursorPage(
      rows.map((row) => ({ ...row, id: row.topic.id })),
      hasMore,
      query,
      count,
    );
    return {
      ...page,
      data: page.data.map((row) =>
        toSubscription(row.topic, subscriber, { createdAt: row.joinedAt, updatedAt: row.membershipUpdatedAt }),
      ),
    };
  }
}
