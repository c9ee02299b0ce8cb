import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { SubscriberRepository, TopicRepository, type SubscriberRow, type TopicMembership, type TopicRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { SubscriptionDetailsDto, TopicSubscriberDto } from '../dto/topic-subscription.dto.js';
import type { SubscriptionDto } from '../dto/topic.dto.js';
import { topicNotFound } from '../topics.service.js';
import { toSubscription } from '../subscription-response.js';

interface Membership {
  topic: TopicRow;
  subscriber: SubscriberRow;
  membership: TopicMembership;
}

/**
 * One membership of a topic, addressed as Novu's clients do: by the subscription's identifier
 * (`tk_{topicKey}:si_{subscriberId}`, the only one this service gives) or by the member's subscriberId.
 */
@Injectable()
export class TopicSubscriptionUseCase {
  constructor(
    private readonly topics: TopicRepository,
    private readonly subscribers: SubscriberRepository,
  ) {}

  async get(auth: AuthContext, key: string, identifier: string): Promise<SubscriptionDetailsDto> {
    const subscription = toSubscription(...(await this.byIdentifier(auth, key, identifier)));
    return { id: subscription._id, identifier: subscription.identifier };
  }

  /**
   * The subscription as it stands: its name and preferences are accepted but not stored, since a topic
   * member receives what the subscriber's own preferences allow.
   */
  async update(auth: AuthContext, key: string, identifier: string): Promise<SubscriptionDto> {
    return toSubscription(...(await this.byIdentifier(auth, key, identifier)));
  }

  async member(auth: AuthContext, key: string, subscriberId: string): Promise<TopicSubscriberDto> {
    const { topic, subscriber } = await this.find(auth, key, subscriberId, () =>
      notMember(`Subscriber ${subscriberId} is not subscribed to topic ${key}`),
    );
    return {
      _organizationId: topic.organizationId,
      _environmentId: topic.environmentId,
      _subscriberId: subscriber.id,
      _topicId: topic.id,
      topicKey: topic.key,
      externalSubscriberId: subscriber.subscriberId,
    };
  }

  private async byIdentifier(
    auth: AuthContext,
    key: string,
    identifier: string,
  ): Promise<[TopicRow, SubscriberRow, TopicMembership]> {
    const missing = () => notMember(`Subscription ${identifier} not found in topic ${key}`);
    const prefix = `tk_${key}:si_`;
    const subscriberId = identifier.startsWith(prefix) ? identifier.slice(prefix.length) : '';
    if (subscriberId === '') {
      if (!(await this.topics.findByKey(auth.environmentId, key))) throw topicNotFound(key);
      throw missing();
    }
    const { topic, subscriber, membership } = await this.find(auth, key, subscriberId, missing);
    return [topic, subscriber, membership];
  }

  private async find(
    auth: AuthContext,
    key: string,
    subscriberId: string,
    missing: () => DomainError,
  ): Promise<Membership> {
    const [topic, subscriber] = await Promise.all([
      this.topics.findByKey(auth.environmentId, key),
      this.subscribers.findBySubscriberId(auth.environmentId, subscriberId),
    ]);
    if (!topic) throw topicNotFound(key);
    if (!subscriber) throw missing();
    const [membership] = await this.topics.findMembers(auth.environmentId, topic.id, [subscriber.id]);
    if (!membership) throw missing();
    return { topic, subscriber, membership };
  }
}

function notMember(message: string): DomainError {
  return new DomainError('NOT_FOUND', message);
}
