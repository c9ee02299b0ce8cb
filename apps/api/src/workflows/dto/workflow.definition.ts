import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import type { WorkflowInput } from '#application';
import { StepDefinition } from './step.definition.js';
import { EachNested } from '../../http/each-nested.js';

const IDENTIFIER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

export class ChannelPreferencesDefinition {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() email?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() sms?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() in_app?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() chat?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() push?: boolean;
}

/** A workflow as a client (POST /v1/workflows) or a file of WORKFLOWS_DIR writes it. */
export class WorkflowDefinition implements WorkflowInput {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ description: 'Trigger identifier, unique per environment; defaults to the slug of the name' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @Matches(IDENTIFIER_PATTERN, {
    message: 'identifier may contain letters, digits, dots, colons, dashes and underscores',
  })
  identifier?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) description?: string;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() active?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() draft?: boolean;
  @ApiPropertyOptional({ default: false, description: 'Critical workflows ignore subscriber preferences' })
  @IsOptional()
  @IsBoolean()
  critical?: boolean;

  @ApiPropertyOptional({
    type: ChannelPreferencesDefinition,
    description: 'Workflow default per channel (true when absent)',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ChannelPreferencesDefinition)
  preferenceSettings?: ChannelPreferencesDefinition;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  tags?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;

  @ApiPropertyOptional({
    default: false,
    description: 'Whether `{{t.key}}` in the steps is looked up in the workflow’s translations',
  })
  @IsOptional()
  @IsBoolean()
  isTranslationEnabled?: boolean;

  @ApiPropertyOptional({ format: 'uuid', description: 'Defaults to the "General" group, created on demand' })
  @IsOptional()
  @IsUUID()
  notificationGroupId?: string;

  @ApiProperty({ type: [StepDefinition] })
  @IsArray()
  @EachNested(() => StepDefinition)
  steps: StepDefinition[];
}
