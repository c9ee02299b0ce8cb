import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { ShallowValidation } from '../../http/shallow-validation.js';
import { IsActor, IsContext, IsTenantRef } from './trigger-validators.js';

/** A trigger without `to` (every subscriber of the environment receives); Novu requires its payload. */
@ShallowValidation()
export class BroadcastEventDto {
  @ApiProperty({ description: 'Trigger identifier of the workflow' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsDefined()
  @IsObject()
  payload: Record<string, unknown>;

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
