import { Injectable } from '@nestjs/common';
import { toStoredPreferences } from '#application';
import { SubscriberRepository, TopicRepository, type SubscriberRow, type TopicMembership, type TopicRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { CursorQueryDto } from '../../http/pagination.dto.js';
import { toCursorPage } from '../../http/cursor-page.js';
import { subscriptionItemsOf, type CreateSubscriptionsBodyDto } from '../dto/topic-subscription.dto.js';
import type { SubscriptionCursorPageDto, SubscriptionErrorDto, SubscriptionsResultDto } from '../dto/topic.dto.js';
import { SubscriptionPreferencesView } from '../subscription-preferences.view.js';
import { subscriptionIdentifier, toSubscription } from '../subscription-response.js';
import { topicNotFound } from '../topics.service.js';

/**
 * Topic membership. Each call is one subscriber lookup plus one multi-row statement, and listing
 * walks the (topic_id, subscriber_id) primary key, so a topic of a million members costs the same.
 */
@Injectable()
export class TopicSubscriptionsUseCase {
  constructor(
    private readonly topics: TopicRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly preferencesView: SubscriptionPreferencesView,
  ) {}

  /**
   * Subscribes, creating the topic (named by `name`, as Novu does) when missing. The context and
   * preferences given apply to every subscription of the call, an existing one included; checked
   * before anything is written.
   */
  async subscribe(auth: AuthContext, key: string, body: CreateSubscriptionsBodyDto): Promise<SubscriptionsResultDto> {
    const items = subscriptionItemsOf(body);
    const preferences = body.preferences === undefined ? undefined : toStoredPreferences(body.preferences);
    const { row: topic } = await this.topics.upsert(auth, key, body.name);
    const { found, errors } = await this.resolve(
      auth,
      items.map((item) => item.subscriberId),
    );
    const names = new Map(items.map((item) => [item.subscriberId, item.name]));
    const deletedMeanwhile = await this.topics.addMembers(
      auth,
      topic.id,
      found.map((row) => ({
        subscriberId: row.id,
        externalSubscriberId: row.subscriberId,
        settings: { name: names.get(row.subscriberId), context: body.context, preferences },
      })),
    );
    for (const row of found.filter((candidate) => deletedMeanwhile.includes(candidate.id)))
      errors.push(subscriberNotFound(row.subscriberId));
    const memberships = await this.topics.findMembers(
      auth.environmentId,
      topic.id,
      found.map((row) => row.id),
    );
    return this.result(auth, topic, found, memberships, errors, items.length);
  }

  async unsubscribe(auth: AuthContext, key: string, subscriberIds: string[]): Promise<SubscriptionsResultDto> {
    const topic = await this.topics.findByKey(auth.environmentId, key);
    if (!topic) throw topicNotFound(key);
    const { found, errors } = await this.resolve(auth, subscriberIds);
    const removed = await this.topics.removeMembers(
      auth.environmentId,
      topic.id,
      found.map((row) => row.id),
    );
    const removedIds = new Set(removed.map((member) => member.subscriberId));
    for (const row of found) {
      if (!removedIds.has(row.id))
        errors.push({
          subscriberId: row.subscriberId,
          code: 'NOT_SUBSCRIBED',
          message: `Subscriber ${row.subscriberId} is not subscribed to topic ${key}`,
        });
    }
    return this.result(
      auth,
      topic,
      found.filter((row) => removedIds.has(row.id)),
      removed,
      errors,
      subscriberIds.length,
    );
  }

  async list(auth: AuthContext, key: string, query: CursorQueryDto): Promise<SubscriptionCursorPageDto> {
    const topic = await this.topics.findByKey(auth.environmentId, key);
    if (!topic) throw topicNotFound(key);
    const [{ rows, hasMore }, count] = await Promise.all([
      this.topics.listMemberDetails(auth.environmentId, topic.id, query),
      this.topics.countMembers(auth.environmentId, topic.id),
    ]);
    const page = toCursorPage(
      rows.map((row) => ({ ...row, id: row.subscriberId })),
      hasMore,
      query,
      count,
    );
    const preferences = await this.preferencesView.describe(
      auth.environmentId,
      page.data.map((row) => ({
        identifier: subscriptionIdentifier(topic.key, row.externalSubscriberId),
        preferences: row.preferences,
      })),
    );
    return {
      ...page,
      data: page.data.map((row, index) =>
        toSubscription(topic, { ...row, subscriberId: row.externalSubscriberId }, row, preferences[index]),
      ),
    };
  }

  private async resolve(
    auth: AuthContext,
    subscriberIds: string[],
  ): Promise<{ found: SubscriberRow[]; errors: SubscriptionErrorDto[] }> {
    const unique = [...new Set(subscriberIds)];
    const found = await this.subscribers.findBySubscriberIds(auth.environmentId, unique);
    const known = new Set(found.map((row) => row.subscriberId));
    const errors = unique.filter((id) => !known.has(id)).map(subscriberNotFound);
    return { found, errors };
  }

  private async result(
    auth: AuthContext,
    topic: TopicRow,
    done: SubscriberRow[],
    memberships: TopicMembership[],
    errors: SubscriptionErrorDto[],
    requested: number,
  ): Promise<SubscriptionsResultDto> {
    const bySubscriber = new Map(memberships.map((membership) => [membership.subscriberId, membership]));
    // A member removed by a concurrent unsubscribe between the two statements is left out.
    const shown = done.flatMap((row) => {
      const membership = bySubscriber.get(row.id);
      return membership ? [{ row, membership }] : [];
    });
    const preferences = await this.preferencesView.describe(
      auth.environmentId,
      shown.map(({ row, membership }) => ({
        identifier: subscriptionIdentifier(topic.key, row.subscriberId),
        preferences: membership.preferences,
      })),
    );
    return {
      data: shown.map(({ row, membership }, index) => toSubscription(topic, row, membership, preferences[index])),
      meta: { totalCount: requested, successful: shown.length, failed: errors.length },
      errors,
    };
  }
}

function subscriberNotFound(subscriberId: string): SubscriptionErrorDto {
  return { subscriberId, code: 'SUBSCRIBER_NOT_FOUND', message: `Subscriber ${subscriberId} not found` };
}
