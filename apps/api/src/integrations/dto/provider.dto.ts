import { ApiProperty } from '@nestjs/swagger';
import { CHANNELS } from '#common';
import type { CredentialField, ProviderSummary } from '#providers';

export class ProviderCredentialFieldDto implements CredentialField {
  @ApiProperty({ description: 'The key in the integration credentials, e.g. apiKey' }) name: string;
  @ApiProperty() label: string;
  @ApiProperty({ description: 'Write-only: a dashboard session never reads it back' }) secret: boolean;
  @ApiProperty({ description: 'The provider refuses to send without it' }) required: boolean;
  @ApiProperty({ enum: ['string', 'text', 'boolean'], description: 'text: a multi-line value (a key file)' })
  type: CredentialField['type'];
}

export class ProviderResponseDto implements ProviderSummary {
  @ApiProperty() providerId: string;
  @ApiProperty({ enum: CHANNELS }) channel: ProviderSummary['channel'];
  @ApiProperty() displayName: string;
  @ApiProperty({ type: [ProviderCredentialFieldDto] }) credentials: ProviderCredentialFieldDto[];
}
