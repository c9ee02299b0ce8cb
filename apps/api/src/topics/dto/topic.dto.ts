import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import type { TopicRow } from '#dal';
import { CursorQueryDto } from '../../http/pagination.dto.js';

const MAX_SUBSCRIPTIONS_PER_CALL = 100;
const KEY_PATTERN = /^[A-Za-z0-9_:.-]+$/;

export class CreateTopicDto {
  @ApiProperty({ minLength: 1, maxLength: 100, pattern: KEY_PATTERN.source, description: 'Unique per environment' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(KEY_PATTERN, { message: 'key may contain letters, digits, and the characters _ : . -' })
  key: string;

  @ApiPropertyOptional({ description: 'Display name; kept when omitted on an existing topic' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}

export class CreateTopicQueryDto {
  @ApiPropertyOptional({ description: 'Answer 409 instead of updating an existing topic' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  failIfExists?: boolean;
}

export class ListTopicsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ description: 'Substring of the key, case-insensitive' })
  @IsOptional()
  @IsString()
  key?: string;
  @ApiPropertyOptional({ description: 'Substring of the name, case-insensitive' })
  @IsOptional()
  @IsString()
  name?: string;
}

/** `name` when the topic has one: Novu's clients accept it absent, not null. */
export function topicName(row: Pick<TopicRow, 'name'>): { name?: string } {
  return row.name === null ? {} : { name: row.name };
}

export class TopicResponseDto {
  @ApiProperty() _id: string;
  @ApiProperty() key: string;
  @ApiPropertyOptional({ description: 'Absent when the topic has no name' }) name?: string;
  @ApiProperty() _environmentId: string;
  @ApiProperty() _organizationId: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;

  static from(row: TopicRow): TopicResponseDto {
    return {
      _id: row.id,
      key: row.key,
      ...topicName(row),
      _environmentId: row.environmentId,
      _organizationId: row.organizationId,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}

export class TopicCursorPageDto {
  @ApiProperty({ type: [TopicResponseDto] }) data: TopicResponseDto[];
  @ApiProperty({ type: String, nullable: true }) next: string | null;
  @ApiProperty({ type: String, nullable: true }) previous: string | null;
  @ApiProperty({ description: 'Topics matching the filter, counted up to 50,000' }) totalCount: number;
  @ApiProperty({ description: 'True when there are more than 50,000 (the count stopped)' }) totalCountCapped: boolean;
}

export class SubscriptionsBodyDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_SUBSCRIPTIONS_PER_CALL, description: 'subscriberIds' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SUBSCRIPTIONS_PER_CALL)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  subscriptions: string[];
}

export class TopicSummaryDto {
  @ApiProperty() _id: string;
  @ApiProperty() key: string;
  @ApiPropertyOptional({ description: 'Absent when the topic has no name' }) name?: string;
}

export class SubscriptionSubscriberDto {
  @ApiProperty({ description: 'Internal subscriber id' }) _id: string;
  @ApiProperty() subscriberId: string;
  @ApiProperty({ type: String, nullable: true }) firstName: string | null;
  @ApiProperty({ type: String, nullable: true }) lastName: string | null;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
  @ApiProperty({ type: String, nullable: true }) phone: string | null;
  @ApiProperty({ type: String, nullable: true }) avatar: string | null;
}

export class SubscriptionPreferenceWorkflowDto {
  @ApiProperty() id: string;
  @ApiProperty() identifier: string;
  @ApiProperty() name: string;
  @ApiProperty() critical: boolean;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) data: Record<string, unknown>;
  @ApiProperty({ enum: ['high', 'medium', 'low', 'none'], description: 'Always none: workflows have no severity here' })
  severity: 'none';
}

/** One workflow a subscription's preferences name, with the entry that decides for it. */
export class SubscriptionPreferenceDto {
  @ApiProperty({ description: 'The subscription identifier' }) subscriptionId: string;
  @ApiPropertyOptional({
    type: SubscriptionPreferenceWorkflowDto,
    nullable: true,
    description: 'Null for an entry that names no existing workflow',
  })
  workflow?: SubscriptionPreferenceWorkflowDto | null;
  @ApiProperty() enabled: boolean;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The JSON Logic condition' })
  condition?: Record<string, unknown>;
}

/** A subscription's own settings, each shown only when set. */
class SubscriptionSettingsDto {
  @ApiPropertyOptional({ description: "The subscription's name, when it has one" }) name?: string;
  @ApiPropertyOptional({ type: [String], description: '`type:id` of each entry of the subscription context' })
  contextKeys?: string[];
  @ApiPropertyOptional({ type: [SubscriptionPreferenceDto], description: 'Absent when the subscription has none' })
  preferences?: SubscriptionPreferenceDto[];
}

export class SubscriptionDto extends SubscriptionSettingsDto {
  @ApiProperty({ description: 'Id of the subscription, the same in every answer' }) _id: string;
  @ApiProperty({ description: '`tk_{topicKey}:si_{subscriberId}`' }) identifier: string;
  @ApiProperty({ type: TopicSummaryDto }) topic: TopicSummaryDto;
  @ApiProperty({ type: SubscriptionSubscriberDto }) subscriber: SubscriptionSubscriberDto;
  @ApiProperty({ description: 'When the subscriber joined the topic' }) createdAt: string;
  @ApiProperty() updatedAt: string;
}

export class SubscriptionDetailsDto extends SubscriptionSettingsDto {
  @ApiProperty({ description: 'Id of the subscription, the same in every answer' }) id: string;
  @ApiProperty({ description: '`tk_{topicKey}:si_{subscriberId}`' }) identifier: string;
}

export class SubscriptionErrorDto {
  @ApiProperty() subscriberId: string;
  @ApiProperty({ enum: ['SUBSCRIBER_NOT_FOUND', 'NOT_SUBSCRIBED'] }) code: string;
  @ApiProperty() message: string;
}

export class SubscriptionsMetaDto {
  @ApiProperty() totalCount: number;
  @ApiProperty() successful: number;
  @ApiProperty() failed: number;
}

export class SubscriptionsResultDto {
  @ApiProperty({ type: [SubscriptionDto] }) data: SubscriptionDto[];
  @ApiProperty({ type: SubscriptionsMetaDto }) meta: SubscriptionsMetaDto;
  @ApiProperty({
    type: [SubscriptionErrorDto],
    description: 'Subscribers that were not (un)subscribed, with the reason',
  })
  errors: SubscriptionErrorDto[];
}

export class SubscriptionCursorPageDto {
  @ApiProperty({ type: [SubscriptionDto] }) data: SubscriptionDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Internal subscriber id to pass as `after`' }) next:
    string | null;
  @ApiProperty({ type: String, nullable: true }) previous: string | null;
  @ApiProperty({ description: 'Members of the topic, counted up to 50,000' }) totalCount: number;
  @ApiProperty({ description: 'True when there are more than 50,000 (the count stopped)' }) totalCountCapped: boolean;
}
