import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { MASKED_VALUE, VARIABLE_KEY_PATTERN } from '#application';
import type { EnvironmentVariableRow } from '#dal';
import { EachNested } from '../../http/each-nested.js';
import { OptionalNotNull } from '../../http/optional-not-null.js';

/** One value per environment of the organization; more are refused. */
const MAX_VARIABLE_VALUES = 50;
export const MAX_VALUE_BYTES = 64 * 1024;
const KEY_MESSAGE = 'key must be UPPER_SNAKE_CASE: a capital letter, then capital letters, digits and underscores';

export class EnvironmentVariableValueDto {
  @ApiProperty({ description: 'An environment of the organization' })
  @IsString()
  @IsNotEmpty()
  _environmentId: string;

  @ApiProperty({ description: `At most ${MAX_VALUE_BYTES} bytes (UTF-8)` })
  @IsString()
  value: string;
}

export class CreateEnvironmentVariableDto {
  @ApiProperty({ description: 'UPPER_SNAKE_CASE, unique in the organization; read as {{env.KEY}}', maxLength: 256 })
  @IsString()
  @MaxLength(256)
  @Matches(VARIABLE_KEY_PATTERN, { message: KEY_MESSAGE })
  key: string;

  @ApiPropertyOptional({ enum: ['string'], default: 'string' })
  @IsOptional()
  @IsIn(['string'])
  type?: 'string';

  @ApiPropertyOptional({ default: false, description: 'Encrypted at rest and masked in every response' })
  @IsOptional()
  @IsBoolean()
  isSecret?: boolean;

  @ApiPropertyOptional({ type: [EnvironmentVariableValueDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_VARIABLE_VALUES)
  @EachNested(() => EnvironmentVariableValueDto)
  values?: EnvironmentVariableValueDto[];
}

export class UpdateEnvironmentVariableDto {
  @ApiPropertyOptional({ description: 'A new key (UPPER_SNAKE_CASE, unique in the organization)', maxLength: 256 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(256)
  @Matches(VARIABLE_KEY_PATTERN, { message: KEY_MESSAGE })
  key?: string;

  @ApiPropertyOptional({ enum: ['string'] })
  @OptionalNotNull()
  @IsIn(['string'])
  type?: 'string';

  @ApiPropertyOptional({ description: 'Turning it on encrypts the stored values; off decrypts them' })
  @OptionalNotNull()
  @IsBoolean()
  isSecret?: boolean;

  @ApiPropertyOptional({
    type: [EnvironmentVariableValueDto],
    description: 'Replaces the value of each environment listed; an empty value removes it',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_VARIABLE_VALUES)
  @EachNested(() => EnvironmentVariableValueDto)
  values?: EnvironmentVariableValueDto[];
}

export class EnvironmentVariablesQueryDto {
  @ApiPropertyOptional({ description: 'Part of the key', maxLength: 256 })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  search?: string;
}

export class EnvironmentVariableValueResponseDto {
  @ApiProperty() _environmentId: string;
  @ApiProperty({ description: `${MASKED_VALUE} for a secret variable` }) value: string;
}

export class EnvironmentVariableResponseDto {
  @ApiProperty() _id: string;
  @ApiProperty() _organizationId: string;
  @ApiProperty() key: string;
  @ApiProperty({ enum: ['string'] }) type: 'string';
  @ApiProperty() isSecret: boolean;
  @ApiProperty({ type: [EnvironmentVariableValueResponseDto] }) values: EnvironmentVariableValueResponseDto[];
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;

  /** Secret values are never decrypted for a response: every one reads as the mask. */
  static from(row: EnvironmentVariableRow): EnvironmentVariableResponseDto {
    return {
      _id: row.id,
      _organizationId: row.organizationId,
      key: row.key,
      type: 'string',
      isSecret: row.isSecret,
      values: row.values.map((stored) => ({
        _environmentId: stored.environmentId,
        value: row.isSecret ? MASKED_VALUE : stored.value,
      })),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}

export class EnvironmentVariableWorkflowDto {
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The workflow trigger identifier' }) workflowId: string;
}

export class EnvironmentVariableUsageResponseDto {
  @ApiProperty({ type: [EnvironmentVariableWorkflowDto] }) workflows: EnvironmentVariableWorkflowDto[];
}
