import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { TopicRepository } from '#dal';
import { toSubscription } from '../../topics/subscription-response.js';
import type { InboxSubscriptionBodyDto, InboxSubscriptionDto } from '../dto/inbox-topics.dto.js';
import type { InboxSession } from '../session-token.js';

/** The session's subscriber's own membership of a topic, in @novu/js's subscription shape. */
@Injectable()
export class InboxTopicSubscriptionsUseCase {
  constructor(private readonly topics: TopicRepository) {}

  async list(session: InboxSession, key: string): Promise<InboxSubscriptionDto[]> {
    const own = await this.find(session, key);
    return own ? [own] : [];
  }

  /** Null when the subscriber is not a member (or the identifier is not its subscription's). */
  async get(session: InboxSession, key: string, identifier: string): Promise<InboxSubscriptionDto | null> {
    const own = await this.find(session, key);
    return own && own.identifier === identifier ? own : null;
  }

  async subscribe(session: InboxSession, key: string, body: InboxSubscriptionBodyDto): Promise<InboxSubscriptionDto> {
    const name = typeof body.topic?.name === 'string' ? body.topic.name : undefined;
    // An existing topic keeps its name: the browser only names a topic it creates.
    const existing = await this.topics.findByKey(session.environmentId, key);
    const topic = existing ?? (await this.topics.upsert(session, key, name)).row;
    await this.topics.addMembers(session, topic.id, [
      { subscriberId: session.subscriberRowId, externalSubscriberId: session.subscriberId },
    ]);
    const own = await this.find(session, key);
    if (!own) throw new DomainError('NOT_FOUND', `Subscription to topic ${key} not found`);
    return own;
  }

  async update(session: InboxSession, key: string, identifier: string): Promise<InboxSubscriptionDto> {
    const own = await this.get(session, key, identifier);
    if (!own) throw notSubscribed(key, identifier);
    return own;
  }

  async unsubscribe(session: InboxSession, key: string, identifier: string): Promise<void> {
    const topic = await this.topics.findByKey(session.environmentId, key);
    if (!topic || !(await this.get(session, key, identifier))) throw notSubscribed(key, identifier);
    await this.topics.removeMembers(session.environmentId, topic.id, [session.subscriberRowId]);
  }

  private async find(session: InboxSession, key: string): Promise<InboxSubscriptionDto | undefined> {
    const topic = await this.topics.findByKey(session.environmentId, key);
    if (!topic) return undefined;
    const [membership] = await this.topics.findMembers(session.environmentId, topic.id, [session.subscriberRowId]);
    if (!membership) return undefined;
    const subscription = toSubscription(
      topic,
      {
        id: session.subscriberRowId,
        subscriberId: session.subscriberId,
        firstName: null,
        lastName: null,
        email: null,
        phone: null,
        avatar: null,
      },
      membership,
    );
    return { id: subscription._id, identifier: subscription.identifier, preferences: [] };
  }
}

function notSubscribed(key: string, identifier: string): DomainError {
  return new DomainError('NOT_FOUND', `Subscription ${identifier} not found in topic ${key}`);
}
