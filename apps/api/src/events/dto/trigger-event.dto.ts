import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { MAX_BULK_EVENTS } from '../../http/request-admission.js';
import { ShallowValidation } from '../../http/validation.js';
import { IsActor, IsContext, IsRecipientList, IsTenantRef } from './trigger-validators.js';

const TRIGGER_STATUSES = [
  'error',
  'trigger_not_active',
  'no_workflow_active_steps_defined',
  'no_workflow_steps_defined',
  'processed',
  'no_tenant_found',
  'invalid_recipients',
] as const;
export type TriggerStatus = (typeof TRIGGER_STATUSES)[number];

/** The fields a trigger and a broadcast share. */
export abstract class TriggerOptionsDto {
  @ApiProperty({ description: 'Trigger identifier of the workflow' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  overrides?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Deduplication key; generated when absent' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  transactionId?: string;

  @ApiPropertyOptional({
    description: 'A subscriberId or a subscriber object',
    oneOf: [{ type: 'string' }, { type: 'object' }],
  })
  @IsOptional()
  @IsActor()
  actor?: string | Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'A tenant identifier or `{identifier, name?, data?}`',
    oneOf: [{ type: 'string' }, { type: 'object' }],
  })
  @IsOptional()
  @IsTenantRef()
  tenant?: string | { identifier: string; name?: string; data?: Record<string, unknown> };

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsContext()
  context?: Record<string, unknown>;
}

/** No nested classes to build; its payload is the client's and is stored as sent, so not deep-copied. */
@ShallowValidation()
export class TriggerEventDto extends TriggerOptionsDto {
  @ApiProperty({
    description:
      'A subscriberId, a subscriber object, a topic `{type: "Topic", topicKey, exclude?}`, or an array of these',
    oneOf: [{ type: 'string' }, { type: 'object' }, { type: 'array', items: {} }],
  })
  @IsDefined()
  @IsRecipientList()
  to: unknown;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  payload?: Record<string, unknown>;
}

@ShallowValidation()
export class BulkTriggerEventDto {
  @ApiProperty({ type: [TriggerEventDto], minItems: 1, maxItems: MAX_BULK_EVENTS })
  @IsArray()
  @ArrayMinSize(1, { message: 'events should not be empty' })
  @ArrayMaxSize(MAX_BULK_EVENTS)
  // Each event is validated on its own by the use case, so one bad event does not fail the batch.
  @IsObject({ each: true, message: 'each event must be an object' })
  events: Record<string, unknown>[];
}

export class TriggerResponseDto {
  @ApiProperty() acknowledged: boolean;
  @ApiProperty({ enum: TRIGGER_STATUSES }) status: TriggerStatus;
  @ApiPropertyOptional({ type: [String] }) error?: string[];
  @ApiPropertyOptional() transactionId?: string;
}
