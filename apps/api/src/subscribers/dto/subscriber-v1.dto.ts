import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  Max,
  Min,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import { isId } from '#common';
import { MARK_AS_VALUES } from '#dal';
import { PageQueryDto } from '../../http/pagination.dto.js';
import { MessageResponseDto } from '../../messages/dto/message.dto.js';
import { ChannelSettingsDto } from './channel-settings.dto.js';

export class UpdateCredentialsDto extends ChannelSettingsDto {}

export class UpdateOnlineStatusDto {
  @ApiProperty()
  @IsDefined()
  @IsBoolean()
  isOnline: boolean;
}

/** One message id or a non-empty array of them; a malformed id is a validation error, not a miss. */
function IsIdOrNonEmptyIdArray(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isIdOrNonEmptyIdArray',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be a message id or a non-empty array of message ids`, ...options },
      validator: {
        validate: (value: unknown) =>
          isId(value) || (Array.isArray(value) && value.length > 0 && value.length <= 1000 && value.every(isId)),
      },
    });
}

export class MarkMessagesDto {
  @ApiProperty({
    oneOf: [
      { type: 'string', format: 'uuid' },
      { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1 },
    ],
  })
  @IsIdOrNonEmptyIdArray()
  messageId: string | string[];

  @ApiProperty({ enum: MARK_AS_VALUES })
  @IsIn(MARK_AS_VALUES)
  markAs: (typeof MARK_AS_VALUES)[number];
}

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class FeedQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only read (true) or unread (false) messages' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  read?: boolean;

  @ApiPropertyOptional({ description: 'Only seen (true) or unseen (false) messages' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  seen?: boolean;
}

export class UnseenCountQueryDto {
  @ApiPropertyOptional({ description: 'Count seen (true) or unseen (false, the default) messages' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  seen?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100, description: 'The count stops at this number' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

export class UnseenCountDto {
  @ApiProperty() count: number;
}

/** An in-app message as the feed shows it (Novu's feed item: no message template id, the job's id, archived). */
export class FeedItemDto extends OmitType(MessageResponseDto, ['_messageTemplateId'] as const) {
  @ApiPropertyOptional({ description: 'The step job that created the message' }) _jobId?: string;
  @ApiProperty({ description: 'Archived through the v2 inbox routes' }) archived: boolean;
}

export class FeedPageDto {
  @ApiProperty({ type: [FeedItemDto] }) data: FeedItemDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}
