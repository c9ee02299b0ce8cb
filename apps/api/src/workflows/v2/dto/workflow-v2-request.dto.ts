import { ApiProperty, ApiPropertyOptional, OmitType, PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { STEP_TYPES, type StepType } from '#common';
import { EachNested } from '../../../http/each-nested.js';
import { WorkflowV2PreferencesRequestDto } from './workflow-v2-preferences.dto.js';

const IDENTIFIER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const IDENTIFIER_MESSAGE = 'may contain letters, digits, dots, colons, dashes and underscores';
const MAX_STEPS = 100;
export const MAX_TAGS = 16;

export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;
export const ORIGINS = ['novu-cloud', 'novu-cloud-v1', 'external'] as const;

export class WorkflowV2StepDto {
  @ApiPropertyOptional({ description: 'Internal id of an existing step (kept on update)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  _id?: string;

  @ApiPropertyOptional({ description: 'Unique within the workflow; defaults to the slug of the name' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @Matches(IDENTIFIER_PATTERN, { message: `stepId ${IDENTIFIER_MESSAGE}` })
  stepId?: string;

  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(255) name: string;

  @ApiProperty({ enum: STEP_TYPES }) @IsIn(STEP_TYPES) type: StepType;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The step's controls (subject, body, amount, url...); `skip` is a JSON Logic rule",
  })
  @IsOptional()
  @IsObject()
  controlValues?: Record<string, unknown>;
}

export class CreateWorkflowV2Dto {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(255) name: string;

  @ApiProperty({ description: 'The trigger identifier, unique per environment' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(IDENTIFIER_PATTERN, { message: `workflowId ${IDENTIFIER_MESSAGE}` })
  workflowId: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) description?: string;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_TAGS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() active?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() validatePayload?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'JSON Schema, 64 KB at most',
  })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsObject()
  payloadSchema?: Record<string, unknown> | null;

  @ApiPropertyOptional({
    default: false,
    description: 'Whether `{{t.key}}` in the steps is looked up in the workflow’s translations',
  })
  @IsOptional()
  @IsBoolean()
  isTranslationEnabled?: boolean;

  @ApiPropertyOptional({ description: 'Where the dashboard created it; not stored' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  source?: string;

  @ApiPropertyOptional({ enum: SEVERITIES, description: 'Accepted; not stored (read back as none)' })
  @IsOptional()
  @IsIn(SEVERITIES)
  severity?: (typeof SEVERITIES)[number];

  @ApiPropertyOptional({ type: WorkflowV2PreferencesRequestDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => WorkflowV2PreferencesRequestDto)
  preferences?: WorkflowV2PreferencesRequestDto;

  @ApiProperty({ type: [WorkflowV2StepDto], maxItems: MAX_STEPS })
  @IsArray()
  @ArrayMaxSize(MAX_STEPS)
  @EachNested(() => WorkflowV2StepDto)
  steps: WorkflowV2StepDto[];
}

/** The full workflow: fields left out get their defaults (steps replace the list; ids sent back are kept). */
export class UpdateWorkflowV2Dto extends OmitType(CreateWorkflowV2Dto, ['workflowId'] as const) {
  @ApiPropertyOptional({ description: 'A new trigger identifier' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(IDENTIFIER_PATTERN, { message: `workflowId ${IDENTIFIER_MESSAGE}` })
  workflowId?: string;

  @ApiPropertyOptional({ enum: ORIGINS, description: 'Accepted; a v2 write is always novu-cloud' })
  @IsOptional()
  @IsIn(ORIGINS)
  origin?: (typeof ORIGINS)[number];
}

/** Only the fields sent change. */
export class PatchWorkflowV2Dto extends PartialType(
  PickType(CreateWorkflowV2Dto, [
    'active',
    'name',
    'description',
    'tags',
    'payloadSchema',
    'validatePayload',
    'isTranslationEnabled',
  ] as const),
) {}

export class SyncWorkflowV2Dto {
  @ApiProperty({ description: 'An environment of the caller’s organization' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  targetEnvironmentId: string;
}
