import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';

const MAX_SUBSCRIPTIONS_PER_CALL = 100;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

function eachItem(name: string, message: string, check: (value: unknown) => boolean) {
  return (options?: ValidationOptions) => (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message, each: true, ...options },
      validator: { validate: check },
    });
}

/** A subscription item as Novu's clients send it: a subscriberId or `{ identifier, subscriberId, name? }`. */
const IsSubscriptionItem = eachItem(
  'isSubscriptionItem',
  'each subscription must be a subscriberId or an object with an identifier and a subscriberId',
  (value) =>
    nonEmptyString(value) ||
    (isPlainObject(value) &&
      nonEmptyString(value.identifier) &&
      nonEmptyString(value.subscriberId) &&
      (value.name === undefined || typeof value.name === 'string')),
);

/** A subscription preference as Novu's clients send it: a workflow id or a workflow / group filter object. */
const IsPreferenceItem = eachItem(
  'isPreferenceItem',
  'each preference must be a workflow identifier or an object',
  (value) => nonEmptyString(value) || isPlainObject(value),
);

class SubscriptionItemDto {
  @ApiProperty({ description: 'Identifier Novu gives the subscription; this service uses its default instead' })
  identifier: string;
  @ApiProperty() subscriberId: string;
  @ApiPropertyOptional({ description: 'Accepted, not stored' }) name?: string;
}

type SubscriptionItem = string | SubscriptionItemDto;

@ApiExtraModels(SubscriptionItemDto)
export class CreateSubscriptionsBodyDto {
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { $ref: getSchemaPath(SubscriptionItemDto) }] },
    minItems: 1,
    maxItems: MAX_SUBSCRIPTIONS_PER_CALL,
    description: 'subscriberIds, or `{ identifier, subscriberId }` objects',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SUBSCRIPTIONS_PER_CALL)
  @IsSubscriptionItem()
  subscriptions: SubscriptionItem[];
}

/** The subscriberId of each item. */
export function subscriberIdsOf(items: SubscriptionItem[]): string[] {
  return items.map((item) => (typeof item === 'string' ? item : item.subscriberId));
}

export class UpdateTopicDto {
  @ApiPropertyOptional({ description: 'New display name; the name is kept when omitted' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Accepted for Novu compatibility, not stored',
  })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown> | null;
}

export class UpdateTopicSubscriptionDto {
  @ApiPropertyOptional({ description: 'Accepted, not stored' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] },
    description: 'Accepted, not acted on: delivery to topic members follows the subscribers’ own preferences',
  })
  @IsOptional()
  @IsArray()
  @IsPreferenceItem()
  preferences?: (string | Record<string, unknown>)[];
}

export class SubscriptionDetailsDto {
  @ApiProperty({ description: 'Id of the subscription, the same in every answer' }) id: string;
  @ApiProperty({ description: '`tk_{topicKey}:si_{subscriberId}`' }) identifier: string;
}

/** A topic member as Novu's v1 topics API shows it. */
export class TopicSubscriberDto {
  @ApiProperty() _organizationId: string;
  @ApiProperty() _environmentId: string;
  @ApiProperty({ description: 'Internal subscriber id' }) _subscriberId: string;
  @ApiProperty() _topicId: string;
  @ApiProperty() topicKey: string;
  @ApiProperty() externalSubscriberId: string;
}
