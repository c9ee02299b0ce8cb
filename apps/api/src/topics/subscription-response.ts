import { v5 as uuidv5 } from 'uuid';
import type { SubscriberRow, TopicMembership, TopicRow } from '#dal';
import { topicName, type SubscriptionDto } from './dto/topic.dto.js';

/** Namespace of the subscription ids, which are derived from the membership's key (topic, subscriber). */
const SUBSCRIPTION_ID_NAMESPACE = '5d0c3a52-4d47-4c8e-9a55-8f1e2b7a6c31';

/** A membership as Novu answers a subscription (every route that shows one, the inbox included). */
export function toSubscription(
  topic: TopicRow,
  subscriber: Pick<SubscriberRow, 'id' | 'subscriberId' | 'firstName' | 'lastName' | 'email' | 'phone' | 'avatar'>,
  membership: Pick<TopicMembership, 'createdAt' | 'updatedAt'>,
): SubscriptionDto {
  const { id, subscriberId, firstName, lastName, email, phone, avatar } = subscriber;
  return {
    _id: uuidv5(`${topic.id}:${id}`, SUBSCRIPTION_ID_NAMESPACE),
    // Novu's default identifier of a subscription made without one.
    identifier: `tk_${topic.key}:si_${subscriberId}`,
    topic: { _id: topic.id, key: topic.key, ...topicName(topic) },
    subscriber: { _id: id, subscriberId, firstName, lastName, email, phone, avatar },
    createdAt: membership.createdAt.toISOString(),
    updatedAt: membership.updatedAt.toISOString(),
  };
}
