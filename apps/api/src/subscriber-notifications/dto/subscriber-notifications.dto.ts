import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  Min,
} from 'class-validator';
import { SEVERITIES, type InboxNotificationResponse } from '#application';
import { ToArray } from '../../http/query-arrays.js';
import { ContextKeysFilter } from '../../http/context-keys-filter.js';

/** The latest instant a JavaScript Date holds: a larger bound would become an invalid date. */
const MAX_DATE_MS = 8_640_000_000_000_000;

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** `?data=` and a body's `data`: a JSON object the message's data must contain; anything else stays a string and fails. */
const toJsonObject = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : value;
  } catch {
    return value;
  }
};

/**
 * Tags as a list (one string is a list of one). Novu's SDK types this body field as an object and
 * strips it to `{}`, so an object is no filter rather than a 422 for every SDK call that sends one.
 */
function tagsValue({ value }: { value: unknown }): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return undefined;
  // @novu/js's `{ or: [...] }` form of one group of tags.
  const or = (value as { or?: unknown }).or;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && Array.isArray(or))
    return or;
  return value;
}

function IsJsonObject() {
  return Transform(toJsonObject);
}

/** The filters the list, its count and the bulk operations share. */
class NotificationFilterDto {
  @ApiPropertyOptional({ type: [String], description: 'Messages carrying any of these workflow tags' })
  @IsOptional()
  @Transform(tagsValue)
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  tags?: string[];

  @ApiPropertyOptional({ description: 'JSON object the message data must contain' })
  @IsOptional()
  @IsJsonObject()
  @IsObject()
  data?: Record<string, unknown>;

  @ContextKeysFilter(
    'Only the notifications sent with exactly these contexts (`type:id`, any order); without it every context',
  )
  contextKeys?: string[];
}

export class ListNotificationsQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 10;

  @ApiPropertyOptional({ description: 'Cursor: the id of the last notification of the previous page' })
  @IsOptional()
  @IsUUID()
  after?: string;

  @ApiPropertyOptional({ minimum: 0, description: 'Skip this many (when no cursor is given)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100_000)
  offset?: number;

  @ApiPropertyOptional() @IsOptional() @Transform(toBoolean) @IsBoolean() read?: boolean;
  @ApiPropertyOptional() @IsOptional() @Transform(toBoolean) @IsBoolean() seen?: boolean;

  @ApiPropertyOptional({ description: 'Default false: archived notifications are listed only on request' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  archived?: boolean;

  @ApiPropertyOptional({ description: 'Default false: snoozed notifications are listed only on request' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  snoozed?: boolean;

  @ApiPropertyOptional({ enum: SEVERITIES, isArray: true })
  @IsOptional()
  @ToArray()
  @IsArray()
  @IsIn(SEVERITIES, { each: true })
  severity?: string[];

  @ApiPropertyOptional({ description: 'JSON object the notification data must contain' })
  @IsOptional()
  @IsJsonObject()
  @IsObject()
  data?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Created at or after (Unix ms)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_DATE_MS)
  createdGte?: number;

  @ApiPropertyOptional({ description: 'Created at or before (Unix ms)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_DATE_MS)
  createdLte?: number;

  @ContextKeysFilter(
    'Only the notifications sent with exactly these contexts (`type:id`, any order); without it every context',
  )
  contextKeys?: string[];
}

export class CountNotificationsQueryDto {
  @ApiProperty({
    description:
      'JSON array of filters ({ read, seen, archived, snoozed, tags, severity, data, contextKeys }), one count each; 1 to 30',
  })
  @IsDefined()
  @IsString()
  filters: string;
}

/** Body of archiveAll, archiveAllRead, deleteAll and markAllAsRead. */
export class UpdateAllNotificationsDto extends NotificationFilterDto {}

export class MarkNotificationsAsSeenDto extends NotificationFilterDto {
  @ApiPropertyOptional({ type: [String], description: 'These notifications only; without it every unseen one' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  notificationIds?: string[];
}

export class SnoozeNotificationDto {
  @ApiProperty({ type: String, format: 'date-time', description: 'When the notification comes back' })
  @IsDefined()
  // Only a string is parsed: class-transformer's Date conversion of an array or object calls its toString,
  // which a hostile body can replace with a non-function.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? new Date(value) : value))
  @IsDate()
  snoozeUntil: Date;
}

export class ContextKeysQueryDto {
  @ContextKeysFilter('Accepted; an operation on one notification, named by its id, is not narrowed by context')
  contextKeys?: string[];
}

class RedirectResponseDto {
  @ApiProperty() url: string;
  @ApiPropertyOptional({ enum: ['_self', '_blank', '_parent', '_top', '_unfencedTop'] }) target?: string;
}

class InboxActionResponseDto {
  @ApiProperty() label: string;
  @ApiProperty() isCompleted: boolean;
  @ApiPropertyOptional({ type: RedirectResponseDto }) redirect?: RedirectResponseDto;
}

class InboxSubscriberDto {
  @ApiProperty({ description: 'Internal id' }) id: string;
  @ApiProperty() subscriberId: string;
  @ApiPropertyOptional() firstName?: string;
  @ApiPropertyOptional() lastName?: string;
  @ApiPropertyOptional() avatar?: string;
}

export class InboxNotificationDto implements InboxNotificationResponse {
  @ApiProperty() id: string;
  @ApiProperty() transactionId: string;
  @ApiPropertyOptional() subject?: string;
  @ApiProperty() body: string;
  @ApiProperty({ type: InboxSubscriberDto }) to: InboxSubscriberDto;
  @ApiProperty() isRead: boolean;
  @ApiProperty() isSeen: boolean;
  @ApiProperty() isArchived: boolean;
  @ApiProperty() isSnoozed: boolean;
  @ApiPropertyOptional() snoozedUntil?: string;
  @ApiProperty({ type: [String], description: 'One entry per delivery: the first send and each return from a snooze' })
  deliveredAt: string[];
  @ApiProperty() createdAt: string;
  @ApiPropertyOptional() readAt?: string;
  @ApiPropertyOptional() firstSeenAt?: string;
  @ApiPropertyOptional() archivedAt?: string;
  @ApiPropertyOptional({ type: InboxActionResponseDto }) primaryAction?: InboxActionResponseDto;
  @ApiPropertyOptional({ type: InboxActionResponseDto }) secondaryAction?: InboxActionResponseDto;
  @ApiProperty({ enum: ['in_app'] }) channelType: 'in_app';
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) data?: Record<string, unknown>;
  @ApiPropertyOptional({ type: RedirectResponseDto }) redirect?: RedirectResponseDto;
  @ApiProperty({ enum: SEVERITIES }) severity: string;
}

export class InboxNotificationPageDto {
  @ApiProperty({ type: [InboxNotificationDto] }) data: InboxNotificationDto[];
  @ApiProperty() hasMore: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The filter applied' })
  filter: Record<string, unknown>;
}

export class NotificationCountDto {
  @ApiProperty() count: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) filter: Record<string, unknown>;
}
