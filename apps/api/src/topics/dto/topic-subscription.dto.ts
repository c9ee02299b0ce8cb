import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  getSchemaPath,
  type ApiPropertyOptions,
} from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  registerDecorator,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';
import { MAX_PREFERENCES } from '#application';
import { IsContext } from '../../events/dto/trigger-validators.js';

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

/** A subscription preference as Novu's clients send it; its fields are checked with their paths by the use case. */
const IsPreferenceItem = eachItem(
  'isPreferenceItem',
  'each preference must be a workflow identifier or an object',
  (value) => nonEmptyString(value) || isPlainObject(value),
);

class SubscriptionItemDto {
  @ApiProperty({ description: 'Identifier Novu gives the subscription; this service uses its default instead' })
  identifier: string;
  @ApiProperty() subscriberId: string;
  @ApiPropertyOptional({ description: "The subscription's name" }) name?: string;
}

const CONDITION_DESCRIPTION =
  "A JSON Logic rule over `payload`, `subscriber`, `actor` and `context` (the trigger's `{ type: { id, data } }`); " +
  'at most 4 KB and 10 levels, operators: var, missing, missing_some, if, ?:, ==, ===, !=, !==, !, !!, and, or, ' +
  '<, <=, >, >=, in, substr, + - * / %, min, max, some, all, none (not nested in one another)';

class WorkflowPreferenceRequestDto {
  @ApiProperty({ description: 'Trigger identifier or internal id of the workflow' }) workflowId: string;
  @ApiPropertyOptional({ default: true }) enabled?: boolean;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: CONDITION_DESCRIPTION })
  condition?: Record<string, unknown>;
}

class GroupPreferenceFilterDetailsDto {
  @ApiPropertyOptional({ type: [String], description: 'Trigger identifiers or internal ids' }) workflowIds?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Workflows carrying any of these tags' }) tags?: string[];
}

class GroupPreferenceFilterDto {
  @ApiProperty({ type: GroupPreferenceFilterDetailsDto }) filter: GroupPreferenceFilterDetailsDto;
  @ApiPropertyOptional({ default: true }) enabled?: boolean;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: CONDITION_DESCRIPTION })
  condition?: Record<string, unknown>;
}

const PREFERENCES_SCHEMA: ApiPropertyOptions & { description: string } = {
  type: 'array',
  maxItems: MAX_PREFERENCES,
  items: {
    oneOf: [
      { type: 'string' },
      { $ref: getSchemaPath(WorkflowPreferenceRequestDto) },
      { $ref: getSchemaPath(GroupPreferenceFilterDto) },
    ],
  },
  description:
    "Which of the topic's triggers reach the subscriber: none given, every one; otherwise the last entry naming " +
    "the trigger's workflow (by identifier, id or tag) decides, by `enabled` and `condition`; no entry, not reached.",
};

type SubscriptionItem = string | SubscriptionItemDto;
type PreferenceItem = string | Record<string, unknown>;

@ApiExtraModels(SubscriptionItemDto, WorkflowPreferenceRequestDto, GroupPreferenceFilterDto)
export class CreateSubscriptionsBodyDto {
  @ApiPropertyOptional({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { $ref: getSchemaPath(SubscriptionItemDto) }] },
    minItems: 1,
    maxItems: MAX_SUBSCRIPTIONS_PER_CALL,
    description: 'subscriberIds, or `{ identifier, subscriberId, name? }` objects; required without subscriberIds',
  })
  @ValidateIf(
    (body: CreateSubscriptionsBodyDto) => body.subscriberIds === undefined || body.subscriptions !== undefined,
  )
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SUBSCRIPTIONS_PER_CALL)
  @IsSubscriptionItem()
  subscriptions?: SubscriptionItem[];

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_SUBSCRIPTIONS_PER_CALL,
    description: "Novu's older form of `subscriptions`",
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SUBSCRIPTIONS_PER_CALL)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  subscriberIds?: string[];

  @ApiPropertyOptional({ description: "The topic's name: creates it with this name or renames it, as Novu does" })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Context of the subscriptions (`{ type: id }` or `{ type: { id, data } }`), shown as contextKeys',
  })
  @IsOptional()
  @IsContext()
  context?: Record<string, unknown>;

  @ApiPropertyOptional(PREFERENCES_SCHEMA)
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_PREFERENCES)
  @IsPreferenceItem()
  preferences?: PreferenceItem[];
}

/** Each subscriber of the body with the subscription name it was given. */
export function subscriptionItemsOf(body: CreateSubscriptionsBodyDto): { subscriberId: string; name?: string }[] {
  return (body.subscriptions ?? body.subscriberIds ?? []).map((item) =>
    typeof item === 'string' ? { subscriberId: item } : { subscriberId: item.subscriberId, name: item.name },
  );
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
  @ApiPropertyOptional({ description: "The subscription's name" })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({
    ...PREFERENCES_SCHEMA,
    description: `${PREFERENCES_SCHEMA.description} An empty array clears them.`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_PREFERENCES)
  @IsPreferenceItem()
  preferences?: PreferenceItem[];
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
