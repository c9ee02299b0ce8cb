import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CHANNELS, MESSAGE_STATUSES } from '#common';
import type { MessageResponse } from '#application';
import { PageQueryDto } from '../../http/pagination.dto.js';
import { SubscriberResponseDto } from '../../subscribers/dto/subscriber.dto.js';
import { ContextKeysFilter } from '../../http/context-keys-filter.js';

export class EmailBlockStylesDto {
  @ApiProperty({ enum: ['center', 'left', 'right'] }) textAlign: string;
}

class EmailBlockDto {
  @ApiProperty({ enum: ['button', 'text'] }) type: string;
  @ApiProperty() content: string;
  @ApiPropertyOptional() url?: string;
  @ApiPropertyOptional({ type: EmailBlockStylesDto }) styles?: EmailBlockStylesDto;
}

class MessageButtonDto {
  @ApiProperty({ enum: ['primary', 'secondary'] }) type: string;
  @ApiProperty() content: string;
  @ApiPropertyOptional() resultContent?: string;
}

class MessageActionResultDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) payload?: Record<string, unknown>;
  @ApiPropertyOptional({ enum: ['primary', 'secondary'] }) type?: string;
}

class MessageCtaActionDto {
  @ApiPropertyOptional({ enum: ['pending', 'done'] }) status?: string;
  @ApiPropertyOptional({ type: [MessageButtonDto] }) buttons?: MessageButtonDto[];
  @ApiPropertyOptional({ type: MessageActionResultDto }) result?: MessageActionResultDto;
}

class MessageCtaDataDto {
  @ApiPropertyOptional() url?: string;
}

class MessageCtaDto {
  @ApiPropertyOptional({ enum: ['redirect'] }) type?: string;
  @ApiPropertyOptional({ type: MessageCtaDataDto }) data?: MessageCtaDataDto;
  @ApiPropertyOptional({ type: MessageCtaActionDto }) action?: MessageCtaActionDto;
}

@ApiExtraModels(EmailBlockDto)
export class MessageResponseDto implements MessageResponse {
  @ApiProperty() _id: string;
  @ApiProperty({ type: String, nullable: true, description: 'Workflow id' }) _templateId: string | null;
  @ApiProperty() _environmentId: string;
  @ApiProperty({ type: String, nullable: true }) _messageTemplateId: string | null;
  @ApiProperty() _organizationId: string;
  @ApiProperty() _notificationId: string;
  @ApiProperty({ description: 'Internal subscriber id' }) _subscriberId: string;
  @ApiPropertyOptional({ type: SubscriberResponseDto }) subscriber?: SubscriberResponseDto;
  @ApiPropertyOptional() templateIdentifier?: string;
  @ApiProperty() createdAt: string;
  @ApiProperty({ type: [String] }) deliveredAt: string[];
  @ApiPropertyOptional() lastSeenDate?: string;
  @ApiPropertyOptional() lastReadDate?: string;
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { $ref: getSchemaPath(EmailBlockDto) } }],
  })
  content?: string | unknown[];
  @ApiProperty() transactionId: string;
  @ApiPropertyOptional() subject?: string;
  @ApiProperty({ enum: CHANNELS }) channel: string;
  @ApiProperty() read: boolean;
  @ApiProperty() seen: boolean;
  @ApiPropertyOptional() snoozedUntil?: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() phone?: string;
  @ApiPropertyOptional() directWebhookUrl?: string;
  @ApiPropertyOptional() providerId?: string;
  @ApiPropertyOptional({ type: [String] }) deviceTokens?: string[];
  @ApiPropertyOptional() title?: string;
  @ApiProperty({ type: MessageCtaDto }) cta: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) _feedId: string | null;
  @ApiProperty({ enum: MESSAGE_STATUSES }) status: string;
  @ApiPropertyOptional() errorId?: string;
  @ApiPropertyOptional() errorText?: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) overrides: Record<string, unknown>;
  @ApiProperty({ type: [String], description: 'Each of the form type:id' }) contextKeys: string[];
}

export class MessagePageDto {
  @ApiProperty({ type: [MessageResponseDto] }) data: MessageResponseDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}

export class ListMessagesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'External subscriberId' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  subscriberId?: string;
  @ApiPropertyOptional({ enum: CHANNELS }) @IsOptional() @IsIn(CHANNELS) channel?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(255) transactionId?: string;

  @ContextKeysFilter('Only messages sent with exactly these contexts (`type:id`, any order)')
  contextKeys?: string[];
}
