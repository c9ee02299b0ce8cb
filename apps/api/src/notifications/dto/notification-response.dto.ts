import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { STEP_TYPES } from '#common';

export class ExecutionDetailDto {
  @ApiProperty() _id: string;
  @ApiProperty() createdAt: string;
  @ApiProperty({ enum: ['Success', 'Warning', 'Failed', 'Pending', 'Queued'] }) status: string;
  @ApiProperty() detail: string;
  @ApiProperty() isRetry: boolean;
  @ApiProperty() isTest: boolean;
  @ApiPropertyOptional({ description: 'Absent when no provider was involved' }) providerId?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) raw: string | null;
  @ApiProperty({ enum: ['Internal', 'Credentials', 'Payload', 'Webhook'] }) source: string;
}

export class NotificationJobDto {
  @ApiProperty() _id: string;
  @ApiProperty({ enum: STEP_TYPES }) type: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Digest jobs only' }) digest?: Record<
    string,
    unknown
  >;
  @ApiProperty({ type: [ExecutionDetailDto] }) executionDetails: ExecutionDetailDto[];
  @ApiProperty({ type: 'object', additionalProperties: true }) step: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) overrides: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload: Record<string, unknown>;
  @ApiProperty({ description: '`novu` for a job no provider handles (delay, digest, no integration)' })
  providerId: string;
  @ApiProperty({
    enum: ['pending', 'queued', 'running', 'completed', 'failed', 'canceled', 'merged', 'skipped', 'delayed'],
  })
  status: string;
  @ApiProperty() updatedAt: string;
}

export class NotificationSubscriberDto {
  @ApiProperty() _id: string;
  @ApiProperty() subscriberId: string;
  @ApiPropertyOptional({ description: 'Absent when not set, as the other fields' }) firstName?: string;
  @ApiPropertyOptional() lastName?: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() phone?: string;
}

export class NotificationTriggerDto {
  @ApiProperty({ enum: ['event'] }) type: 'event';
  @ApiProperty() identifier: string;
  @ApiProperty({ type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } }) variables: {
    name: string;
  }[];
}

export class NotificationTemplateDto {
  @ApiProperty() _id: string;
  @ApiProperty() name: string;
  @ApiProperty() origin: string;
  @ApiProperty({ type: [NotificationTriggerDto] }) triggers: NotificationTriggerDto[];
}

export class NotificationTopicDto {
  @ApiProperty() _topicId: string;
  @ApiProperty() topicKey: string;
}

export class NotificationItemDto {
  @ApiProperty() _id: string;
  @ApiProperty() _environmentId: string;
  @ApiProperty() _organizationId: string;
  @ApiProperty() _subscriberId: string;
  @ApiProperty() transactionId: string;
  @ApiProperty() _templateId: string;
  @ApiPropertyOptional({ description: 'Set on a notification merged into a digest' }) _digestedNotificationId?: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
  @ApiProperty({ type: [String] }) channels: string[];
  @ApiPropertyOptional({ type: NotificationSubscriberDto }) subscriber?: NotificationSubscriberDto;
  @ApiPropertyOptional({ type: NotificationTemplateDto }) template?: NotificationTemplateDto;
  @ApiProperty({ type: [NotificationJobDto] }) jobs: NotificationJobDto[];
  @ApiProperty({ type: 'object', additionalProperties: true }) payload: Record<string, unknown>;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) controls: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) to?: unknown;
  @ApiProperty({ type: [NotificationTopicDto] }) topics: NotificationTopicDto[];
  @ApiProperty({ type: [String], description: "The trigger's contexts, each `type:id`" }) contextKeys: string[];
}

export class NotificationPageDto {
  @ApiProperty() hasMore: boolean;
  @ApiProperty({ type: [NotificationItemDto] }) data: NotificationItemDto[];
  @ApiProperty() pageSize: number;
  @ApiProperty() page: number;
}
