import { Injectable } from '@nestjs/common';
import { DomainError, isId } from '#common';
import { ActivityFeedRepository } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { NotificationItemDto } from '../dto/notification-response.dto.js';
import { items } from './list-notifications.use-case.js';

/** GET /v1/notifications/{id}: the list's item for one notification, read the same way. */
@Injectable()
export class GetNotificationUseCase {
  constructor(private readonly feed: ActivityFeedRepository) {}

  async execute(auth: AuthContext, notificationId: string): Promise<NotificationItemDto> {
    if (!isId(notificationId))
      throw DomainError.validation('notificationId', 'notificationId must be a UUID', notificationId);
    const [item] = items(await this.feed.one(auth.environmentId, notificationId));
    if (!item) throw new DomainError('NOT_FOUND', `Notification ${notificationId} not found`);
    return item;
  }
}
