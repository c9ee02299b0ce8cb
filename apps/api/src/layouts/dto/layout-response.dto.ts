import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { layoutBody, slugify } from '#application';
import type { LayoutRow } from '#dal';
import { LayoutEmailControlsDto } from './layout-input.dto.js';
import { MissingTranslationsDto } from '../../translations/dto/translation-response.dto.js';

export class LayoutControlValuesResponseDto {
  @ApiPropertyOptional({ type: LayoutEmailControlsDto }) email?: LayoutEmailControlsDto;
}

export class LayoutControlsResponseDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'JSON Schema of the control values' })
  dataSchema?: Record<string, unknown>;
  @ApiProperty({ type: LayoutControlValuesResponseDto }) values: LayoutControlValuesResponseDto;
}

/** JSON Schema of the email controls, so a client can build a form for them. */
const DATA_SCHEMA = {
  type: 'object',
  properties: {
    email: {
      type: 'object',
      properties: { body: { type: 'string' }, editorType: { type: 'string', enum: ['html', 'block'] } },
      required: ['body', 'editorType'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

/** What a layout's template can read besides `{{content}}`. */
const VARIABLES_SCHEMA = {
  type: 'object',
  properties: {
    subscriber: { type: 'object', additionalProperties: true },
    env: { type: 'object', additionalProperties: { type: 'string' } },
  },
  additionalProperties: true,
};

export class LayoutResponseDto {
  @ApiProperty() _id: string;
  @ApiProperty() layoutId: string;
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
  @ApiProperty() isDefault: boolean;
  @ApiProperty() isTranslationEnabled: boolean;
  @ApiProperty() updatedAt: string;
  @ApiProperty() createdAt: string;
  @ApiProperty({ enum: ['novu-cloud', 'novu-cloud-v1', 'external'] }) origin: 'novu-cloud';
  @ApiProperty({ enum: ['REGULAR', 'ECHO', 'BRIDGE'] }) type: 'REGULAR';
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true }) variables?: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ type: LayoutControlsResponseDto }) controls: LayoutControlsResponseDto;

  static from(row: LayoutRow): LayoutResponseDto {
    const body = layoutBody(row.controlValues);
    const email = row.controlValues.email as { editorType?: unknown } | undefined;
    return {
      _id: row.id,
      layoutId: row.layoutId,
      slug: `${slugify(row.name) || 'layout'}_${row.layoutId}`,
      name: row.name,
      isDefault: row.isDefault,
      isTranslationEnabled: row.isTranslationEnabled,
      updatedAt: row.updatedAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      origin: 'novu-cloud',
      type: 'REGULAR',
      variables: VARIABLES_SCHEMA,
      controls: {
        dataSchema: DATA_SCHEMA,
        values:
          body === undefined ? {} : { email: { body, editorType: email?.editorType === 'block' ? 'block' : 'html' } },
      },
    };
  }
}

export class LayoutListResponseDto {
  @ApiProperty({ type: [LayoutResponseDto] }) layouts: LayoutResponseDto[];
  @ApiProperty() totalCount: number;
}

export class LayoutWorkflowDto {
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The workflow trigger identifier' }) workflowId: string;
}

export class LayoutUsageResponseDto {
  @ApiProperty({ type: [LayoutWorkflowDto] }) workflows: LayoutWorkflowDto[];
}

export class LayoutEmailPreviewDto {
  @ApiProperty({ description: 'The layout rendered around sample content' }) body: string;
}

export class LayoutPreviewResultDto {
  @ApiProperty({ enum: ['email'] }) type: 'email';
  @ApiProperty({ type: LayoutEmailPreviewDto }) preview: LayoutEmailPreviewDto;
}

export class LayoutPreviewPayloadExampleDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) subscriber?: Record<string, unknown>;
}

export class LayoutPreviewResponseDto {
  @ApiProperty({ type: LayoutPreviewPayloadExampleDto }) previewPayloadExample: LayoutPreviewPayloadExampleDto;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true }) schema?: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ type: LayoutPreviewResultDto }) result: LayoutPreviewResultDto;
  @ApiPropertyOptional({ type: MissingTranslationsDto, description: '`{{t.key}}` found in no locale, when some are' })
  missingTranslations?: MissingTranslationsDto;
}
