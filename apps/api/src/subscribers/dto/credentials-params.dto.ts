import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { SUBSCRIBER_PROVIDER_IDS } from '#providers';

export class CredentialsProviderParams {
  @ApiProperty() @IsString() subscriberId: string;

  @ApiProperty({ enum: SUBSCRIBER_PROVIDER_IDS })
  @IsIn(SUBSCRIBER_PROVIDER_IDS, { message: 'providerId must be a valid provider ID' })
  providerId: string;
}
