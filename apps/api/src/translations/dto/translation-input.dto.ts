import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { LOCALE_MESSAGE } from '#application';

export const RESOURCE_TYPES = ['workflow', 'layout'] as const;
const RESOURCE_ID_MAX = 255;

/** A `language_REGION` locale (`de_DE`). */
export const IsLocale = () =>
  applyDecorators(IsString(), Matches(/^[a-z]{2,3}_[A-Z]{2}$/, { message: `locale ${LOCALE_MESSAGE}` }));

/** The path of one resource's translations. */
export class TranslationResourceParamsDto {
  @ApiProperty({ enum: RESOURCE_TYPES })
  @IsIn(RESOURCE_TYPES)
  resourceType: (typeof RESOURCE_TYPES)[number];

  @ApiProperty({ description: "The workflow's workflowId (trigger identifier) or the layout's layoutId" })
  @IsString()
  @MaxLength(RESOURCE_ID_MAX)
  resourceId: string;
}

/** The path of one locale of one resource. */
export class TranslationLocaleParamsDto extends TranslationResourceParamsDto {
  @ApiProperty({ example: 'de_DE' })
  @IsLocale()
  locale: string;
}

export class CreateTranslationDto extends TranslationLocaleParamsDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Keys to strings, or to nested objects of strings; values may use template variables',
  })
  @IsObject()
  content: Record<string, unknown>;
}

export class MasterJsonQueryDto {
  @ApiPropertyOptional({ description: "The locale to export; the environment's default locale when absent" })
  @IsOptional()
  @IsLocale()
  locale?: string;
}

export class ImportMasterJsonDto {
  @ApiProperty({ example: 'de_DE' })
  @IsLocale()
  locale: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '`{ workflows: { <workflowId>: content }, layouts: { <layoutId>: content } }`',
  })
  @IsObject()
  masterJson: Record<string, unknown>;
}
