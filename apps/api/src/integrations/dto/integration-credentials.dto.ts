import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsOptional, IsString } from 'class-validator';

/** The spec's IntegrationCredentials: every field optional; unknown fields are dropped. */
export class IntegrationCredentialsDto {
  @ApiPropertyOptional() @IsOptional() @IsString() apiKey?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() user?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() secretKey?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() domain?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() password?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() host?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() port?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() region?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() accountSid?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() messageProfileId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() token?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() from?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() senderName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() projectName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() applicationId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() clientId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() baseUrl?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() webhookUrl?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() redirectUrl?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() serviceAccount?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() ipPoolName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() apiKeyRequestHeader?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() secretKeyRequestHeader?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() idPath?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() datePath?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() apiToken?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() authenticationTokenKey?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() instanceId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() alertUid?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() title?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() imageUrl?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() state?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() externalLink?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() channelId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() phoneNumberIdentification?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() accessKey?: string;
  /** The session token of temporary AWS credentials (SES, SNS). */
  @ApiPropertyOptional() @IsOptional() @IsString() sessionToken?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() appSid?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() senderId?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() secure?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() requireTls?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() ignoreTls?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() hmac?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() authenticateByToken?: boolean;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() tlsOptions?: Record<
    string,
    unknown
  >;
}
