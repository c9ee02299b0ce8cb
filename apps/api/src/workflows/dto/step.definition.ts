import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmpty,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { StepInput } from '#application';
import { hasMetadata, METADATA_STEP_TYPES, STEP_TYPES, type StepType } from '#common';
import { StepFilterDefinition } from './step-filter.definition.js';
import { METADATA_SCHEMAS, toMetadataInstance } from './step-metadata.definition.js';
import { EachNested } from '../../http/each-nested.js';

/** "digest, delay, throttle and http_request", for the API document and the error of a missing metadata. */
const METADATA_STEP_NAMES =
  METADATA_STEP_TYPES.length > 1
    ? `${METADATA_STEP_TYPES.slice(0, -1).join(', ')} and ${METADATA_STEP_TYPES.at(-1)}`
    : METADATA_STEP_TYPES.join('');

const IsStringOrArray = () =>
  ValidateBy({
    name: 'isStringOrArray',
    validator: {
      validate: (value) => typeof value === 'string' || Array.isArray(value),
      defaultMessage: () => '$property must be a string or an array of blocks',
    },
  });

/** The message template of a step; fields beyond these are dropped. Rendered with Liquid at send time. */
export class StepTemplateDefinition {
  @ApiProperty({ enum: STEP_TYPES })
  @IsIn(STEP_TYPES)
  type: StepType;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(1000) subject?: string;

  @ApiPropertyOptional({
    description: 'A string, or an array of email blocks',
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }],
  })
  @IsOptional()
  @IsStringOrArray()
  content?: string | unknown[];

  @ApiPropertyOptional() @IsOptional() @IsString() title?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'MessageCTA' })
  @IsOptional()
  @IsObject()
  cta?: Record<string, unknown>;
  @ApiPropertyOptional() @IsOptional() @IsString() senderName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() preheader?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() layoutId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() avatar?: string;
  @ApiPropertyOptional({ enum: ['editor', 'customHtml'] })
  @IsOptional()
  @IsIn(['editor', 'customHtml'])
  contentType?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() data?: Record<
    string,
    unknown
  >;
}

const MAX_STEP_VARIANTS = 20;

export class ReplyCallbackDefinition {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() active?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsUrl({ require_tld: false }) url?: string;
}

@ApiExtraModels(...METADATA_SCHEMAS)
export class StepDefinition implements StepInput {
  @ApiPropertyOptional({ description: 'Kept on update when it names an existing step; generated otherwise' })
  @IsOptional()
  @IsString()
  _id?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(255) name?: string;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() active?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() shouldStopOnFail?: boolean;

  @ApiProperty({ type: StepTemplateDefinition })
  @IsDefined()
  @ValidateNested()
  @Type(() => StepTemplateDefinition)
  template: StepTemplateDefinition;

  @ApiPropertyOptional({ type: [StepFilterDefinition] })
  @IsOptional()
  @IsArray()
  @EachNested(() => StepFilterDefinition)
  filters?: StepFilterDefinition[];

  @ApiPropertyOptional({
    description: `Required on ${METADATA_STEP_NAMES} steps: one of the metadata forms, chosen by template.type and metadata.type`,
    oneOf: METADATA_SCHEMAS.map((schema) => ({ $ref: getSchemaPath(schema) })),
  })
  @ValidateIf((step: StepDefinition) => hasMetadata(step.template?.type) || step.metadata !== undefined)
  @IsDefined({ message: `metadata is required on ${METADATA_STEP_NAMES} steps` })
  @IsObject()
  @ValidateNested()
  @Transform(({ value, obj }) => toMetadataInstance((obj as { template?: { type?: unknown } }).template?.type, value))
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ type: ReplyCallbackDefinition })
  @IsOptional()
  @ValidateNested()
  @Type(() => ReplyCallbackDefinition)
  replyCallback?: ReplyCallbackDefinition;

  @ApiPropertyOptional({
    type: () => [StepVariantDefinition],
    description: `At most ${MAX_STEP_VARIANTS}, of the step's type; the first whose filters match replaces the step's template, metadata and replyCallback`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_STEP_VARIANTS)
  @EachNested(() => StepVariantDefinition)
  variants?: StepVariantDefinition[];
}

/** A step's variant: the step's shape with its own filters, template and metadata, and no variants. */
export class StepVariantDefinition extends StepDefinition {
  @IsEmpty({ message: 'a variant cannot have variants' })
  declare variants?: never;
}
