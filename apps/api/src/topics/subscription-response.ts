import { v5 as uuidv5 } from 'uuid';
import { contextEntriesOf, contextKeysOf } from '#application';
import type { SubscriberRow, TopicMembership, TopicRow } from '#dal';
import { topicName, type SubscriptionDto, type SubscriptionPreferenceDto } from './dto/topic.dto.js';

/** Namespace of the subscription ids, which are derived from the membership's key (topic, subscriber). */
const SUBSCRIPTION_ID_NAMESPACE = '5d0c3a52-4d47-4c8e-9a55-8f1e2b7a6c31';

/** Novu's default identifier of a subscription made without one. */
export function subscriptionIdentifier(topicKey: string, subscriberId: string): string {
  return `tk_${topicKey}:si_${subscriberId}`;
}

function subscriptionId(topicId: string, subscriberId: string): string {
  return uuidv5(`${topicId}:${subscriberId}`, SUBSCRIPTION_ID_NAMESPACE);
}

/** The subscription's name and context keys, each only when set (Novu's clients accept them absent, not null). */
export function subscriptionSettings(membership: Partial<Pick<TopicMembership, 'name' | 'context'>>): {
  name?: string;
  contextKeys?: string[];
} {
  return {
    ...(membership.name ? { name: membership.name } : {}),
    ...(membership.context ? { contextKeys: contextKeysOf(contextEntriesOf(membership.context)) } : {}),
  };
}

/**
 * A membership as Novu answers a subscription (every route that shows one, the inbox included);
 * `preferences` as described by SubscriptionPreferencesView, for the routes that show them.
 */
export function toSubscription(
  topic: TopicRow,
  subscriber: Pick<SubscriberRow, 'id' | 'subscriberId' | 'firstName' | 'lastName' | 'email' | 'phone' | 'avatar'>,
  membership: Pick<TopicMembership, 'createdAt' | 'updatedAt'> & Partial<Pick<TopicMembership, 'name' | 'context'>>,
  preferences?: SubscriptionPreferenceDto[],
): SubscriptionDto {
  const { id, subscriberId, firstName, lastName, email, phone, avatar } = subscriber;
  return {
    _id: subscriptionId(topic.id, id),
    identifier: subscriptionIdentifier(topic.key, subscriberId),
    topic: { _id: topic.id, key: topic.key, ...topicName(topic) },
    subscriber: { _id: id, subscriberId, firstName, lastName, email, phone, avatar },
    ...subscriptionSettings(membership),
    ...(preferences ? { preferences } : {}),
    createdAt: membership.createdAt.toISOString(),
    updatedAt: membership.updatedAt.toISOString(),
  };
}
