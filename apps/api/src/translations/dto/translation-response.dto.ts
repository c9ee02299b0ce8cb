import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { TranslationRow } from '#dal';
import { RESOURCE_TYPES } from './translation-input.dto.js';

export class TranslationResponseDto {
  @ApiProperty() resourceId: string;
  @ApiProperty({ enum: RESOURCE_TYPES }) resourceType: (typeof RESOURCE_TYPES)[number];
  @ApiProperty() locale: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) content: Record<string, unknown>;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;

  static from(row: TranslationRow): TranslationResponseDto {
    return {
      resourceId: row.resourceId,
      resourceType: row.resourceType,
      locale: row.locale,
      content: row.content,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}

export class TranslationGroupResponseDto {
  @ApiProperty() resourceId: string;
  @ApiProperty({ enum: RESOURCE_TYPES }) resourceType: (typeof RESOURCE_TYPES)[number];
  @ApiProperty() resourceName: string;
  @ApiProperty({ type: [String] }) locales: string[];
  @ApiProperty({ description: 'When the first of its locales was created' }) createdAt: string;
  @ApiProperty({ description: 'When one of its locales last changed' }) updatedAt: string;
}

export class UploadTranslationsResponseDto {
  @ApiProperty() totalFiles: number;
  @ApiProperty() successfulUploads: number;
  @ApiProperty({ description: 'Always 0: an upload with a bad file is refused whole' }) failedUploads: number;
  @ApiProperty({ type: [String] }) errors: string[];
}

export class MasterJsonResponseDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'workflowId → content' })
  workflows: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'layoutId → content' })
  layouts: Record<string, unknown>;
}

export class ImportMasterJsonResponseDto {
  @ApiProperty() success: boolean;
  @ApiProperty() message: string;
  @ApiPropertyOptional({ type: [String], description: 'The workflowIds and layoutIds written' }) successful?: string[];
}

/** What a preview reports about `{{t.key}}` found in no locale. */
export class MissingTranslationsDto {
  @ApiProperty({ type: [String] }) keys: string[];
  @ApiPropertyOptional({ description: "The subscriber's locale, tried first" }) locale?: string;
  @ApiProperty({ description: "The environment's default locale, tried next" }) defaultLocale: string;
}
