import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString } from 'class-validator';
import { ACTION_TYPES, type ActionType } from '#application';
import { ToArray } from '../../http/query-arrays.js';
import {
  InboxNotificationDto,
  ListNotificationsQueryDto,
  NotificationCountDto,
} from '../../subscriber-notifications/dto/subscriber-notifications.dto.js';

export class InboxListNotificationsQueryDto extends ListNotificationsQueryDto {
  @ApiPropertyOptional({ type: [String], description: 'Notifications carrying any of these tags' })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  tags?: string[];
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
