import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { CHANNELS, type Channel } from '#common';
import type { IntegrationResponse } from '#application';
import { OptionalNotNull } from '../../http/optional-not-null.js';
import { IntegrationConditionDto, MAX_CONDITIONS } from './integration-condition.dto.js';
import { IntegrationCredentialsDto } from './integration-credentials.dto.js';
import { EachNested } from '../../http/each-nested.js';

const IDENTIFIER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const IDENTIFIER_MESSAGE =
  'identifier may contain letters, digits, dots, dashes and underscores, starting with a letter or digit';

export class IntegrationConfigurationsDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() inboundWebhookEnabled?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() inboundWebhookSigningKey?: string;
}

export class IntegrationIdParam {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  integrationId: string;
}

export class CreateIntegrationDto {
  @ApiProperty({ description: 'Provider of the integration, e.g. sendgrid, twilio, slack' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  providerId: string;

  @ApiProperty({ enum: CHANNELS })
  @IsIn(CHANNELS)
  channel: Channel;

  @ApiPropertyOptional({ description: 'Display name; defaults to the providerId' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ description: 'Unique per environment; defaults to the providerId and a short random suffix' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  @Matches(IDENTIFIER_PATTERN, { message: IDENTIFIER_MESSAGE })
  identifier?: string;

  @ApiPropertyOptional({ type: IntegrationCredentialsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => IntegrationCredentialsDto)
  credentials?: IntegrationCredentialsDto;

  @ApiPropertyOptional({ type: IntegrationConfigurationsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => IntegrationConfigurationsDto)
  configurations?: IntegrationConfigurationsDto;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({
    type: [IntegrationConditionDto],
    maxItems: MAX_CONDITIONS,
    description:
      'When any passes (tenant, payload, subscriber), the integration is used for the message; an integration with conditions is never primary',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CONDITIONS)
  @EachNested(() => IntegrationConditionDto)
  conditions?: IntegrationConditionDto[];
}

/** Partial: absent fields stay as they are; `credentials` and `configurations` replace the stored objects. */
export class UpdateIntegrationDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @MaxLength(255)
  @Matches(IDENTIFIER_PATTERN, { message: IDENTIFIER_MESSAGE })
  identifier?: string;

  @ApiPropertyOptional({ type: IntegrationCredentialsDto })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => IntegrationCredentialsDto)
  credentials?: IntegrationCredentialsDto;

  @ApiPropertyOptional({ type: IntegrationConfigurationsDto })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => IntegrationConfigurationsDto)
  configurations?: IntegrationConfigurationsDto;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ type: [IntegrationConditionDto], maxItems: MAX_CONDITIONS })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_CONDITIONS)
  @EachNested(() => IntegrationConditionDto)
  conditions?: IntegrationConditionDto[];
}

export class IntegrationResponseDto implements IntegrationResponse {
  @ApiProperty() _id: string;
  @ApiProperty() _environmentId: string;
  @ApiProperty() _organizationId: string;
  @ApiProperty() name: string;
  @ApiProperty() identifier: string;
  @ApiProperty() providerId: string;
  @ApiProperty({ enum: CHANNELS }) channel: string;
  @ApiProperty({ type: IntegrationCredentialsDto, description: 'Decrypted' }) credentials: Record<string, unknown>;
  @ApiProperty({ type: IntegrationConfigurationsDto }) configurations: Record<string, unknown>;
  @ApiProperty() active: boolean;
  @ApiProperty() deleted: boolean;
  @ApiPropertyOptional({ description: 'When it was deleted; absent until then' }) deletedAt?: string;
  @ApiPropertyOptional({ description: 'API key id that deleted it; absent until then' }) deletedBy?: string;
  @ApiProperty() primary: boolean;
  @ApiProperty({ description: 'Failover order within the channel: higher first' }) priority: number;
  @ApiProperty({ type: [IntegrationConditionDto] }) conditions: unknown[];
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}
