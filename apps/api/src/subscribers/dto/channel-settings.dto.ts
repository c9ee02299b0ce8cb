import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { SUBSCRIBER_PROVIDER_IDS } from '#providers';
import { MAX_DEVICE_TOKENS } from '#application';

export class ChannelCredentialsDto {
  @ApiPropertyOptional({ description: 'Webhook URL for chat integrations' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  webhookUrl?: string;
  @ApiPropertyOptional({ description: 'Channel for Mattermost chat notifications' })
  @IsOptional()
  @IsString()
  channel?: string;
  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_DEVICE_TOKENS,
    description: 'Replaces the stored tokens when given',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_DEVICE_TOKENS)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  deviceTokens?: string[];
  @ApiPropertyOptional() @IsOptional() @IsString() alertUid?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() title?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() imageUrl?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() state?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() externalUrl?: string;
}

/** A channel entry in the credentials form (request side). */
export class ChannelSettingsDto {
  @ApiProperty({ enum: SUBSCRIBER_PROVIDER_IDS })
  @IsIn(SUBSCRIBER_PROVIDER_IDS, { message: 'providerId must be a valid provider ID' })
  providerId: string;

  @ApiPropertyOptional({ description: 'Picks among several integrations of the provider' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  integrationIdentifier?: string;

  @ApiProperty({ type: ChannelCredentialsDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ChannelCredentialsDto)
  credentials: ChannelCredentialsDto;
}

export class ChannelSettingsResponseDto {
  @ApiProperty({ enum: SUBSCRIBER_PROVIDER_IDS }) providerId: string;
  @ApiPropertyOptional() integrationIdentifier?: string;
  @ApiProperty({ type: ChannelCredentialsDto }) credentials: ChannelCredentialsDto;
  @ApiProperty() _integrationId: string;
}

/** The spec's online-status response lists the provider enumeration without appio. */
export class OnlineStatusChannelSettingsDto extends ChannelSettingsResponseDto {
  @ApiProperty({ enum: SUBSCRIBER_PROVIDER_IDS.filter((id) => id !== 'appio') }) declare providerId: string;
}
