import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { IsContext } from '../../events/dto/trigger-validators.js';
import { CreateSubscriberDto } from '../../subscribers/dto/subscriber.dto.js';

/** The subscriber a browser names: the subscribers API's fields (same validation) without channel credentials. */
export class SessionSubscriberDto extends OmitType(CreateSubscriberDto, ['channels'] as const) {}

export class StartInboxSessionDto {
  @ApiProperty({ description: "The environment's public identifier (GET /v1/environments/me)" })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  applicationIdentifier: string;

  @ApiPropertyOptional({ description: 'Hex HMAC-SHA256 of the subscriberId keyed with an API key of the environment' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  subscriberHash?: string;

  @ApiPropertyOptional({ type: SessionSubscriberDto, description: 'Created or updated with the fields given' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SessionSubscriberDto)
  subscriber?: SessionSubscriberDto;

  @ApiPropertyOptional({ description: 'When no subscriber object is sent' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  subscriberId?: string;

  // Checked by validateSchedule when used (unknown day keys are refused, not stripped).
  @ApiPropertyOptional({ description: "The subscriber's schedule when it has none yet" })
  @Allow()
  defaultSchedule?: unknown;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "The session's context, as a trigger's (`{ tenant: 'acme' }`): the session sees only messages sent with exactly this context",
  })
  @IsOptional()
  @IsContext()
  context?: Record<string, unknown>;

  @ApiPropertyOptional({
    description:
      "Hex HMAC-SHA256 of the context's canonical JSON keyed with an API key of the environment; required with a context where HMAC is",
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  contextHash?: string;
}

class SeverityCountsDto {
  @ApiProperty() high: number;
  @ApiProperty() medium: number;
  @ApiProperty() low: number;
  @ApiProperty() none: number;
}

class UnreadCountDto {
  @ApiProperty() total: number;
  @ApiProperty({ type: SeverityCountsDto }) severity: SeverityCountsDto;
}

export class InboxSessionDto {
  @ApiProperty({ description: 'Bearer token of every other /v1/inbox call (24 hours)' }) token: string;
  @ApiProperty({ description: 'Same as unreadCount.total' }) totalUnreadCount: number;
  @ApiProperty({ type: UnreadCountDto }) unreadCount: UnreadCountDto;
  @ApiProperty() removeNovuBranding: boolean;
  @ApiProperty({ description: 'The environment is the Development one' }) isDevelopmentMode: boolean;
  @ApiProperty({ description: 'The longest snooze accepted (90 days)' }) maxSnoozeDurationHours: number;
  @ApiProperty() applicationIdentifier: string;
  @ApiProperty({ type: [String] }) contextKeys: string[];
}

export class InboxSessionEnvelopeDto {
  @ApiProperty({ type: InboxSessionDto }) data: InboxSessionDto;
}
