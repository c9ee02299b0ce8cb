import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '#application';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '#dal';
import { OptionalNotNull } from '../../http/optional-not-null.js';

const URL_DESCRIPTION =
  'https URL the events are POSTed to (http and internal addresses only with ALLOW_PRIVATE_WEBHOOK_TARGETS)';
const HEADERS_DESCRIPTION =
  'Extra request headers (at most 20; names may not be content-type, host or the webhook-* signature headers)';

export class CreateWebhookEndpointDto {
  @ApiProperty({ description: URL_DESCRIPTION, maxLength: 2048 })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    description: 'The event types it receives; empty or absent: every type',
  })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  eventTypes?: WebhookEventType[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: HEADERS_DESCRIPTION })
  @IsOptional()
  @IsObject()
  headers?: Record<string, string>;
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ description: URL_DESCRIPTION, maxLength: 2048 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ maxLength: 500, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  @OptionalNotNull()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  eventTypes?: WebhookEventType[];

  @ApiPropertyOptional({ description: 'Turning an endpoint on again also clears why the service turned it off' })
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: HEADERS_DESCRIPTION })
  @OptionalNotNull()
  @IsObject()
  headers?: Record<string, string>;
}

export class WebhookEndpointResponseDto {
  @ApiProperty() _id: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) eventTypes: string[];
  @ApiProperty() enabled: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the service turned it off (HTTP 410, 5 days failing)',
  })
  disabledReason: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) headers: Record<string, string>;
  @ApiProperty({ type: String, nullable: true, description: 'Start of the current run of failed attempts' })
  failingSince: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;

  static from(row: WebhookEndpointRow): WebhookEndpointResponseDto {
    return {
      _id: row.id,
      url: row.url,
      description: row.description,
      eventTypes: row.eventTypes,
      enabled: row.enabled,
      disabledReason: row.disabledReason,
      headers: row.headers,
      failingSince: row.failingSince?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}

export class CreatedWebhookEndpointResponseDto extends WebhookEndpointResponseDto {
  @ApiProperty({ description: 'The signing secret (whsec_…); shown only here and by rotate-secret' })
  secret: string;
}

export class WebhookSecretResponseDto {
  @ApiProperty({ description: 'The new signing secret (whsec_…)' })
  secret: string;

  @ApiProperty({ description: 'Until then the previous secret signs too (a second v1 entry in webhook-signature)' })
  previousSecretExpiresAt: string;
}

export class WebhookDeliveriesQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'The last delivery id of the previous page' })
  @IsOptional()
  @IsUUID()
  after?: string;
}

export class WebhookDeliveryResponseDto {
  @ApiProperty() _id: string;
  @ApiProperty({ description: 'The event id: the webhook-id header of every attempt' }) eventId: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) eventType: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'canceled'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: String, nullable: true }) nextAttemptAt: string | null;
  @ApiProperty({ type: Number, nullable: true }) lastStatusCode: number | null;
  @ApiProperty({ type: Number, nullable: true }) lastDurationMs: number | null;
  @ApiProperty({ type: String, nullable: true }) lastError: string | null;
  @ApiProperty({ type: String, nullable: true }) lastAttemptAt: string | null;
  @ApiProperty() createdAt: string;

  static from(row: WebhookDeliveryRow): WebhookDeliveryResponseDto {
    return {
      _id: row.id,
      eventId: row.eventId,
      eventType: row.eventType,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
      lastStatusCode: row.lastStatusCode,
      lastDurationMs: row.lastDurationMs,
      lastError: row.lastError,
      lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    };
  }
}

export class WebhookDeliveryPageDto {
  @ApiProperty({ type: [WebhookDeliveryResponseDto] }) data: WebhookDeliveryResponseDto[];
  @ApiProperty() hasMore: boolean;
}

export class WebhookEndpointListDto {
  @ApiProperty({ type: [WebhookEndpointResponseDto] }) data: WebhookEndpointResponseDto[];
}
