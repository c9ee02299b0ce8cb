import { Injectable } from '@nestjs/common';
import { SubscriberRepository, TopicRepository, type SubscriberRow, type TopicRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { CursorQueryDto } from '../../http/pagination.dto.js';
import { toCursorPage } from '../../http/cursor-page.js';
import type {
  SubscriptionCursorPageDto,
  SubscriptionDto,
  SubscriptionErrorDto,
  SubscriptionsResultDto,
} from '../dto/topic.dto.js';
import { topicNotFound } from '../topics.service.js';

const summary = (topic: TopicRow) => ({ _id: topic.id, key: topic.key, name: topic.name });

function toSubscription(
  topic: TopicRow,
  subscriber: Pick<SubscriberRow, 'id' | 'subscriberId' | 'firstName' | 'lastName' | 'email' | 'phone' | 'avatar'>,
): SubscriptionDto {
  const { id, subscriberId, firstName, lastName, email, phone, avatar } = subscriber;
  return { topic: summary(topic), subscriber: { _id: id, subscriberId, firstName, lastName, email, phone, avatar } };
}

/**
 * Topic membership. Each call is one subscriber lookup plus one multi-row statement, and listing
 * walks the (topic_id, subscriber_id) primary key, so a topic of a million members costs the same.
 */
@Injectable()
export class TopicSubscriptionsUseCase {
  constructor(
    private readonly topics: TopicRepository,
    private readonly subscribers: SubscriberRepository,
  ) {}

  async subscribe(auth: AuthContext, key: string, subscriberIds: string[]): Promise<SubscriptionsResultDto> {
    const { row: topic } = await this.topics.upsert(auth, key);
    const { found, errors } = await this.resolve(auth, subscriberIds);
    await this.topics.addMembers(
      auth,
      topic.id,
      found.map((row) => ({ subscriberId: row.id, externalSubscriberId: row.subscriberId })),
    );
    return this.result(topic, found, errors, subscriberIds.length);
  }

  async unsubscribe(auth: AuthContext, key: string, subscriberIds: string[]): Promise<SubscriptionsResultDto> {
    const topic = await this.topics.findByKey(auth.environmentId, key);
    if (!topic) throw topicNotFound(key);
    const { found, errors } = await this.resolve(auth, subscriberIds);
    const removed = new Set(
      (
        await this.topics.removeMembers(
          auth.environmentId,
          topic.id,
          found.map((row) => row.id),
        )
      ).map((member) => member.subscriberId),
    );
    for (const row of found) {
      if (!removed.has(row.id))
        errors.push({
          subscriberId: row.subscriberId,
          code: 'NOT_SUBSCRIBED',
          message: `Subscriber ${row.subscriberId} is not subscribed to topic ${key}`,
        });
    }
    return this.result(
      topic,
      found.filter((row) => removed.has(row.id)),
      errors,
      subscriberIds.length,
    );
  }

  async list(auth: AuthContext, key: string, query: CursorQueryDto): Promise<SubscriptionCursorPageDto> {
    const topic = await this.topics.findByKey(auth.environmentId, key);
    if (!topic) throw topicNotFound(key);
    const { rows, hasMore } = await this.topics.listMemberDetails(auth.environmentId, topic.id, query);
    const page = toCursorPage(
      rows.map((row) => ({ ...row, id: row.subscriberId })),
      hasMore,
      query,
    );
    return {
      ...page,
      data: page.data.map((row) => ({
        ...toSubscription(topic, { ...row, subscriberId: row.externalSubscriberId }),
        createdAt: row.createdAt.toISOString(),
      })),
    };
  }

  private async resolve(
    auth: AuthContext,
    subscriberIds: string[],
  ): Promise<{ found: SubscriberRow[]; errors: SubscriptionErrorDto[] }> {
    const unique = [...new Set(subscriberIds)];
    const found = await this.subscribers.findBySubscriberIds(auth.environmentId, unique);
    const known = new Set(found.map((row) => row.subscriberId));
    const errors = unique
      .filter((id) => !known.has(id))
      .map((id) => ({ subscriberId: id, code: 'SUBSCRIBER_NOT_FOUND', message: `Subscriber ${id} not found` }));
    return { found, errors };
  }

  private result(
    topic: TopicRow,
    done: SubscriberRow[],
    errors: SubscriptionErrorDto[],
    requested: number,
  ): SubscriptionsResultDto {
    return {
      data: done.map((row) => toSubscription(topic, row)),
      meta: { totalCount: requested, successful: done.length, failed: errors.length },
      errors,
    };
  }
}
