import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { ACTION_TYPES, type ActionType } from '#application';
import { TagsQuery } from './tags-query.js';
import {
  InboxNotificationDto,
  ListNotificationsQueryDto,
  NotificationCountDto,
} from '../../subscriber-notifications/dto/subscriber-notifications.dto.js';

export class InboxListNotificationsQueryDto extends ListNotificationsQueryDto {
  @TagsQuery('Notifications carrying any of these tags') tags?: string[];
}

export class InboxActionDto {
  @ApiProperty({ enum: ACTION_TYPES })
  @IsIn(ACTION_TYPES)
  actionType: ActionType;
}

/** @novu/js unwraps single answers from `{ data }`. */
export class InboxNotificationEnvelopeDto {
  @ApiProperty({ type: InboxNotificationDto }) data: InboxNotificationDto;
}

export class InboxCountsDto {
  @ApiProperty({ type: [NotificationCountDto] }) data: NotificationCountDto[];
}
