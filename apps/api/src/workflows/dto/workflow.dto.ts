import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Channel } from '#common';
import type { NotificationGroupResponse, NotificationTriggerResponse, WorkflowResponse } from '#application';
import { PageQueryDto } from '../../http/pagination.dto.js';
import { StepFilterDefinition } from './step-filter.definition.js';
import { ReplyCallbackDefinition, StepTemplateDefinition } from './step.definition.js';
import { ChannelPreferencesDefinition, WorkflowDefinition } from './workflow.definition.js';

export class CreateWorkflowDto extends WorkflowDefinition {}

/** Partial: fields left out stay as they are; `steps`, when sent, replace the list. */
export class UpdateWorkflowDto extends PartialType(WorkflowDefinition) {}

export class UpdateWorkflowStatusDto {
  @ApiProperty()
  @IsBoolean()
  active: boolean;
}

export class WorkflowListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Matches the name or the trigger identifier (case-insensitive substring)' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  query?: string;
}

class TriggerVariableDto {
  @ApiProperty() name: string;
}

export class NotificationTriggerDto implements NotificationTriggerResponse {
  @ApiProperty({ enum: ['event'] }) type: 'event';
  @ApiProperty() identifier: string;
  @ApiProperty({ type: [TriggerVariableDto], description: 'payload.* paths used by the step templates' }) variables: {
    name: string;
  }[];
  @ApiProperty({ type: [TriggerVariableDto], description: 'subscriber.* paths used by the step templates' })
  subscriberVariables: { name: string }[];
}

export class NotificationGroupDto implements NotificationGroupResponse {
  @ApiProperty() _id: string;
  @ApiProperty() name: string;
  @ApiProperty() _environmentId: string;
  @ApiProperty() _organizationId: string;
}

export class NotificationStepDto {
  @ApiProperty() _id: string;
  @ApiPropertyOptional() _templateId?: string;
  @ApiPropertyOptional() name?: string;
  @ApiProperty() active: boolean;
  @ApiProperty() shouldStopOnFail: boolean;
  @ApiProperty({ type: StepTemplateDefinition }) template: { type: string; [key: string]: unknown };
  @ApiProperty({ type: [StepFilterDefinition] }) filters: unknown[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'One of the digest/delay metadata forms',
  })
  metadata?: Record<string, unknown>;
  @ApiPropertyOptional({ type: ReplyCallbackDefinition }) replyCallback?: ReplyCallbackDefinition;
  @ApiPropertyOptional({ type: () => [NotificationStepDto], description: 'The same shape, without variants' })
  variants?: NotificationStepDto[];
}

export class WorkflowResponseDto implements WorkflowResponse {
  @ApiProperty() _id: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() active: boolean;
  @ApiProperty() draft: boolean;
  @ApiProperty() critical: boolean;
  @ApiProperty({ type: ChannelPreferencesDefinition }) preferenceSettings: Record<Channel, boolean>;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: [NotificationStepDto] }) steps: NotificationStepDto[];
  @ApiProperty() _organizationId: string;
  @ApiProperty({ type: String, nullable: true, description: 'API key id that created it' }) _creatorId: string | null;
  @ApiProperty() _environmentId: string;
  @ApiProperty() _notificationGroupId: string;
  @ApiPropertyOptional({ type: NotificationGroupDto }) notificationGroup?: NotificationGroupDto;
  @ApiProperty({ type: [NotificationTriggerDto] }) triggers: NotificationTriggerDto[];
  @ApiProperty() deleted: boolean;
  @ApiProperty({ type: String, nullable: true }) deletedAt: string | null;
  @ApiProperty({ type: String, nullable: true }) deletedBy: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true }) data: Record<
    string,
    unknown
  > | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

export class WorkflowPageDto {
  @ApiProperty({ type: [WorkflowResponseDto] }) data: WorkflowResponseDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
  @ApiProperty() totalCount: number;
}
