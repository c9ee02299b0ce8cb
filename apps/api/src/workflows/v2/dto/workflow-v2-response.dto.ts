import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { StepV2Response, WorkflowV2ListItem, WorkflowV2Response } from '#application';
import { MissingTranslationsDto } from '../../../translations/dto/translation-response.dto.js';
import { ORIGINS } from './workflow-v2-request.dto.js';
import { WorkflowV2PreferencesResponseDto } from './workflow-v2-preferences.dto.js';

const OBJECT = { type: 'object', additionalProperties: true } as const;

class WorkflowV2ControlsDto {
  @ApiProperty({ ...OBJECT, description: 'The controls with the defaults the step uses' }) values: Record<
    string,
    unknown
  >;
}

export class WorkflowV2StepResponseDto implements StepV2Response {
  @ApiProperty() _id: string;
  @ApiProperty() stepId: string;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty() type: string;
  @ApiProperty({ enum: ORIGINS }) origin: (typeof ORIGINS)[number];
  @ApiProperty({ description: 'The trigger identifier of its workflow' }) workflowId: string;
  @ApiProperty() workflowDatabaseId: string;
  @ApiProperty({ type: WorkflowV2ControlsDto }) controls: WorkflowV2ControlsDto;
  @ApiProperty({ ...OBJECT, description: 'As written' }) controlValues: Record<string, unknown>;
  @ApiProperty({ ...OBJECT, description: 'JSON Schema of what the templates can use' }) variables: Record<
    string,
    unknown
  >;
}

export class WorkflowV2ResponseDto implements WorkflowV2Response {
  @ApiProperty() _id: string;
  @ApiProperty({ description: 'The trigger identifier' }) workflowId: string;
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty() active: boolean;
  @ApiProperty() validatePayload: boolean;
  @ApiProperty({ ...OBJECT, nullable: true }) payloadSchema: Record<string, unknown> | null;
  @ApiProperty() isTranslationEnabled: boolean;
  @ApiProperty({ enum: ORIGINS }) origin: (typeof ORIGINS)[number];
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE'] }) status: 'ACTIVE' | 'INACTIVE';
  @ApiProperty({ enum: ['none'] }) severity: 'none';
  @ApiProperty({ type: WorkflowV2PreferencesResponseDto }) preferences: WorkflowV2Response['preferences'];
  @ApiProperty({ type: [WorkflowV2StepResponseDto] }) steps: WorkflowV2StepResponseDto[];
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'Not tracked: always null' }) lastTriggeredAt: null;
}

class WorkflowV2StepOverviewDto {
  @ApiProperty() slug: string;
  @ApiProperty() type: string;
}

export class WorkflowV2ListItemDto implements WorkflowV2ListItem {
  @ApiProperty() _id: string;
  @ApiProperty() workflowId: string;
  @ApiProperty() slug: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ enum: ORIGINS }) origin: (typeof ORIGINS)[number];
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE'] }) status: 'ACTIVE' | 'INACTIVE';
  @ApiProperty({ type: [String] }) stepTypeOverviews: string[];
  @ApiProperty() isTranslationEnabled: boolean;
  @ApiProperty({ type: [WorkflowV2StepOverviewDto] }) steps: WorkflowV2StepOverviewDto[];
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
  @ApiProperty({ type: String, nullable: true }) lastTriggeredAt: null;
}

export class WorkflowV2ListDto {
  @ApiProperty({ type: [WorkflowV2ListItemDto] }) workflows: WorkflowV2ListItemDto[];
  @ApiProperty() totalCount: number;
}

class WorkflowV2PreviewResultDto {
  @ApiProperty() type: string;
  @ApiProperty({
    ...OBJECT,
    description: 'What the step would deliver (in_app: subject, body, actions...; email: subject, body as HTML)',
  })
  preview: Record<string, unknown>;
}

export class WorkflowV2PreviewDto {
  @ApiProperty({ type: WorkflowV2PreviewResultDto }) result: WorkflowV2PreviewResultDto;
  @ApiProperty({ ...OBJECT, description: 'The variables used: subscriber, payload, steps, context' })
  previewPayloadExample: Record<string, unknown>;
  @ApiPropertyOptional({ ...OBJECT, nullable: true, description: 'JSON Schema of the variables' }) schema: Record<
    string,
    unknown
  > | null;
  @ApiPropertyOptional({ type: MissingTranslationsDto, description: '`{{t.key}}` found in no locale, when some are' })
  missingTranslations?: MissingTranslationsDto;
}
