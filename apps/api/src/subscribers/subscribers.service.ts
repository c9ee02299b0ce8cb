import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { SubscriberRepository, type SubscriberRow } from '#dal';
import { RealtimePublisher, SubscriberChannelsResolver, toSubscriberResponse, SubscriberWrites } from '#application';
import type { AuthContext } from '../auth/auth-context.js';
import { toCursorPage, type CursorPage } from '../http/cursor-page.js';
import type { CreateSubscriberDto, ListSubscribersQueryDto, UpdateSubscriberDto } from './dto/subscriber.dto.js';

/** Subscriber CRUD; the merge rules live in the repository's upsert. */
@Injectable()
export class SubscribersService {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly channels: SubscriberChannelsResolver,
    private readonly realtime: RealtimePublisher,
    private readonly writes: SubscriberWrites,
  ) {}

  async upsert(auth: AuthContext, body: CreateSubscriberDto, failIfExists = false): Promise<SubscriberRow> {
    const existing = failIfExists
      ? await this.subscribers.findBySubscriberId(auth.environmentId, body.subscriberId)
      : undefined;
    if (existing) {
      throw DomainError.alreadyExists(`Subscriber ${body.subscriberId} already exists`, toSubscriberResponse(existing));
    }
    const channels = body.channels ? await this.channels.resolve(auth.environmentId, body.channels) : undefined;
    const [row] = await this.writes.upsert(auth, [{ ...body, channels }]);
    return row;
  }

  async get(auth: AuthContext, subscriberId: string): Promise<SubscriberRow> {
    const row = await this.subscribers.findBySubscriberId(auth.environmentId, subscriberId);
    if (!row) throw notFound(subscriberId);
    return row;
  }

  async update(auth: AuthContext, subscriberId: string, body: UpdateSubscriberDto): Promise<SubscriberRow> {
    const row = await this.subscribers.update(auth.environmentId, subscriberId, body);
    if (!row) throw notFound(subscriberId);
    return row;
  }

  /** Its inbox sessions end with it: their tokens fail (a new generation) and open sockets close. */
  async delete(auth: AuthContext, subscriberId: string): Promise<void> {
    const rowId = await this.writes.delete(auth.environmentId, subscriberId);
    if (!rowId) throw notFound(subscriberId);
    this.realtime.subscribersDeleted([rowId]);
  }

  async list(auth: AuthContext, query: ListSubscribersQueryDto): Promise<CursorPage<SubscriberRow>> {
    const [{ rows, hasMore }, count] = await Promise.all([
      this.subscribers.list(auth.environmentId, query, query),
      this.subscribers.count(auth.environmentId, query),
    ]);
    return toCursorPage(rows, hasMore, query, count);
  }
}

export function notFound(subscriberId: string): DomainError {
  return new DomainError('SUBSCRIBER_NOT_FOUND', `Subscriber ${subscriberId} not found`);
}
