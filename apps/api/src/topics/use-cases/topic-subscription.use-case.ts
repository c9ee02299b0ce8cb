import { Injectable } from '@nestjs/common';
import { toStoredPreferences } from '#application';
import { DomainError } from '#common';
import { SubscriberRepository, TopicRepository, type SubscriberRow, type TopicMembership, type TopicRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { TopicSubscriberDto, UpdateTopicSubscriptionDto } from '../dto/topic-subscription.dto.js';
import type { SubscriptionDetailsDto, SubscriptionDto } from '../dto/topic.dto.js';
import { topicNotFound } from '../topics.service.js';
import { SubscriptionPreferencesView } from '../subscription-preferences.view.js';
import { subscriptionSettings, toSubscription } from '../subscription-response.js';

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
    private readonly preferencesView: SubscriptionPreferencesView,
  ) {}

  async get(auth: AuthContext, key: string, identifier: string): Promise<SubscriptionDetailsDto> {
    const [topic, subscriber, membership] = await this.byIdentifier(auth, key, identifier);
    const subscription = toSubscription(topic, subscriber, membership);
    const [preferences] = await this.preferencesView.describe(auth.environmentId, [
      { identifier: subscription.identifier, preferences: membership.preferences },
    ]);
    return {
      id: subscription._id,
      identifier: subscription.identifier,
      ...subscriptionSettings(membership),
      ...(preferences ? { preferences } : {}),
    };
  }

  /** Sets the name and preferences given (checked before anything is written); `preferences: []` clears them. */
  async update(
    auth: AuthContext,
    key: string,
    identifier: string,
    body: UpdateTopicSubscriptionDto,
  ): Promise<SubscriptionDto> {
    const preferences = body.preferences === undefined ? undefined : toStoredPreferences(body.preferences);
    const [topic, subscriber, current] = await this.byIdentifier(auth, key, identifier);
    const changed =
      body.name === undefined && preferences === undefined
        ? current
        : await this.topics.updateSubscription(auth.environmentId, topic.id, subscriber.id, {
            name: body.name,
            preferences,
          });
    if (!changed) throw notMember(`Subscription ${identifier} not found in topic ${key}`);
    const [described] = await this.preferencesView.describe(auth.environmentId, [
      { identifier, preferences: changed.preferences },
    ]);
    return toSubscription(topic, subscriber, changed, described);
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
