import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { EnvironmentRepository, TopicRepository, type Environment } from '#dal';
import { inboxTopicAllowed } from '../inbox-topic-policy.js';
import { toSubscription } from '../../topics/subscription-response.js';
import type { InboxSubscriptionBodyDto, InboxSubscriptionDto } from '../dto/inbox-topics.dto.js';
import type { InboxSession } from '../session-token.js';

/** The session's subscriber's own membership of a topic, in @novu/js's subscription shape. */
@Injectable()
export class InboxTopicSubscriptionsUseCase {
  constructor(
    private readonly topics: TopicRepository,
    private readonly environments: EnvironmentRepository,
  ) {}

  async list(session: InboxSession, key: string): Promise<InboxSubscriptionDto[]> {
    const own = await this.find(session, key);
    return own ? [own] : [];
  }

  /** Null when the subscriber is not a member (or the identifier is not its subscription's). */
  async get(session: InboxSession, key: string, identifier: string): Promise<InboxSubscriptionDto | null> {
    const own = await this.find(session, key);
    return own && own.identifier === identifier ? own : null;
  }

  /**
   * Only topics the environment opens to sessions (none by default), and at most its cap of them per
   * subscriber. The setting is read at every join, uncached: closing topics takes effect at once.
   */
  async subscribe(session: InboxSession, key: string, body: InboxSubscriptionBodyDto): Promise<InboxSubscriptionDto> {
    const environment = await this.environments.findEnvironmentById(session.environmentId);
    if (!environment) throw new DomainError('UNAUTHORIZED', 'The environment of this inbox session no longer exists');
    if (!inboxTopicAllowed(environment.inboxTopicPatterns, key)) throw topicClosed(environment, key);
    // An existing topic keeps its name: the browser only names a topic it creates.
    const name = typeof body.topic?.name === 'string' ? body.topic.name : undefined;
    const member = { subscriberId: session.subscriberRowId, externalSubscriberId: session.subscriberId };
    const join = await this.topics.joinBySession(session, key, name, member, environment.inboxTopicsPerSubscriber);
    if (join === 'full') throw capReached(environment, session.subscriberId);
    if (join === 'gone') throw new DomainError('UNAUTHORIZED', 'The subscriber of this inbox session was deleted');
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

const CLI = 'npm run cli -- environment inbox-topics';

function topicClosed(environment: Environment, key: string): DomainError {
  const why = environment.inboxTopicPatterns.length
    ? `topic ${key} is not among the topics this environment opens to inbox sessions`
    : 'this environment opens no topic to inbox sessions (the default)';
  return new DomainError(
    'FORBIDDEN',
    `Inbox sessions may not join ${key}: ${why}. The operator opens topics with \`${CLI} --allow '<key or prefix*>,...' --environment ${environment.name}\`; GET /v1/environments/me shows inboxTopics`,
  );
}

function capReached(environment: Environment, subscriberId: string): DomainError {
  const cap = environment.inboxTopicsPerSubscriber;
  return new DomainError(
    'FORBIDDEN',
    `Subscriber ${subscriberId} has joined ${cap} topics through inbox sessions, the most this environment allows: leave one first, or the operator raises the cap with \`${CLI} --max-per-subscriber <n> --environment ${environment.name}\``,
  );
}

function notSubscribed(key: string, identifier: string): DomainError {
  return new DomainError('NOT_FOUND', `Subscription ${identifier} not found in topic ${key}`);
}
