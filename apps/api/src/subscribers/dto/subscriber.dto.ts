import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsTimeZone,
  MaxLength,
  registerDecorator,
} from 'class-validator';
import { EMAIL_ADDRESS_RULE, isEmailAddress } from '#common';
import type { SubscriberResponse } from '#application';
import { CursorQueryDto } from '../../http/pagination.dto.js';
import {
  ChannelSettingsDto,
  ChannelSettingsResponseDto,
  OnlineStatusChannelSettingsDto,
} from './channel-settings.dto.js';
import { EachNested } from '../../http/each-nested.js';

const MAX_BULK_SUBSCRIBERS = 500;

const nullableString = { type: String, nullable: true } as const;

/**
 * Exactly one address: a list or a CR/LF in it would reach other mailboxes.
 * The empty string stays accepted as before: it names no mailbox, and an email step skips it.
 */
function IsEmailAddress() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isEmailAddress',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be ${EMAIL_ADDRESS_RULE}` },
      validator: { validate: (value: unknown) => value === '' || isEmailAddress(value) },
    });
}

/** Fields shared by create and update: undefined leaves the stored value, null clears it. */
class SubscriberFieldsDto {
  @ApiPropertyOptional(nullableString) @IsOptional() @IsString() @MaxLength(255) firstName?: string | null;
  @ApiPropertyOptional(nullableString) @IsOptional() @IsString() @MaxLength(255) lastName?: string | null;
  @ApiPropertyOptional({ ...nullableString, description: 'One address, e.g. ada@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @IsEmailAddress()
  email?: string | null;
  @ApiPropertyOptional(nullableString) @IsOptional() @IsString() @MaxLength(64) phone?: string | null;
  @ApiPropertyOptional({ ...nullableString, description: 'URL of the avatar image' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  avatar?: string | null;
  @ApiPropertyOptional(nullableString) @IsOptional() @IsString() @MaxLength(64) locale?: string | null;
  @ApiPropertyOptional({ ...nullableString, description: 'IANA time zone, e.g. Europe/Paris' })
  @IsOptional()
  @IsTimeZone()
  timezone?: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown> | null;
}

export class CreateSubscriberDto extends SubscriberFieldsDto {
  @ApiProperty({ description: 'Your identifier for the subscriber' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  subscriberId: string;

  @ApiPropertyOptional({ type: [ChannelSettingsDto], description: 'Merged into the stored channel settings' })
  @IsOptional()
  @IsArray()
  @EachNested(() => ChannelSettingsDto)
  channels?: ChannelSettingsDto[];
}

export class UpdateSubscriberDto extends SubscriberFieldsDto {}

export class CreateSubscriberQueryDto {
  @ApiPropertyOptional({ description: 'Answer 409 instead of updating an existing subscriber' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  failIfExists?: boolean;
}

export class ListSubscribersQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ description: 'Substring of the email, case-insensitive' })
  @IsOptional()
  @IsString()
  email?: string;
  @ApiPropertyOptional({ description: 'Substring of the phone' }) @IsOptional() @IsString() phone?: string;
  @ApiPropertyOptional({ description: 'Substring of the first or last name' }) @IsOptional() @IsString() name?: string;
  @ApiPropertyOptional({ description: 'Substring of the subscriberId' })
  @IsOptional()
  @IsString()
  subscriberId?: string;
}

export class SubscriberResponseDto implements SubscriberResponse {
  @ApiProperty({ description: 'Internal id' }) _id: string;
  @ApiProperty() subscriberId: string;
  @ApiProperty(nullableString) firstName: string | null;
  @ApiProperty(nullableString) lastName: string | null;
  @ApiProperty(nullableString) email: string | null;
  @ApiProperty(nullableString) phone: string | null;
  @ApiProperty(nullableString) avatar: string | null;
  @ApiProperty(nullableString) locale: string | null;
  @ApiProperty({ type: [ChannelSettingsResponseDto] }) channels: ChannelSettingsResponseDto[];
  @ApiProperty({ type: Boolean, nullable: true }) isOnline: boolean | null;
  @ApiProperty(nullableString) lastOnlineAt: string | null;
  @ApiProperty({ description: 'Version, incremented on every change' }) __v: number;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) data: Record<string, unknown> | null;
  @ApiProperty(nullableString) timezone: string | null;
  @ApiProperty() _organizationId: string;
  @ApiProperty() _environmentId: string;
  @ApiProperty() deleted: boolean;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

export class SubscriberCursorPageDto {
  @ApiProperty({ type: [SubscriberResponseDto] }) data: SubscriberResponseDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `after` for the next page' }) next: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `before` for the previous page' }) previous:
    string | null;
  @ApiProperty({ description: 'Subscribers matching the filter, counted up to 50,000' }) totalCount: number;
  @ApiProperty({ description: 'True when there are more than 50,000 (the count stopped)' }) totalCountCapped: boolean;
}

export class BulkCreateSubscribersDto {
  @ApiProperty({
    type: [CreateSubscriberDto],
    minItems: 1,
    maxItems: MAX_BULK_SUBSCRIBERS,
    description: 'Each item is validated on its own',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_SUBSCRIBERS)
  subscribers: unknown[];
}

export class BulkItemDto {
  @ApiProperty() subscriberId: string;
}

export class BulkFailedItemDto {
  @ApiProperty({ type: String, nullable: true, description: 'null when the item had no usable subscriberId' })
  subscriberId: string | null;
  @ApiProperty() message: string;
}

export class BulkCreateSubscribersResponseDto {
  @ApiProperty({ type: [BulkItemDto] }) created: BulkItemDto[];
  @ApiProperty({ type: [BulkItemDto] }) updated: BulkItemDto[];
  @ApiProperty({ type: [BulkFailedItemDto] }) failed: BulkFailedItemDto[];
}

export class OnlineStatusSubscriberResponseDto extends SubscriberResponseDto {
  @ApiProperty({ type: [OnlineStatusChannelSettingsDto] }) declare channels: OnlineStatusChannelSettingsDto[];
}
