import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * A subscription as @novu/js sends it. This service has one subscription per topic and subscriber,
 * named `tk_{topicKey}:si_{subscriberId}`: a different identifier, a name or per-subscription
 * preferences are accepted and not stored.
 */
export class InboxSubscriptionBodyDto {
  @ApiPropertyOptional({ description: 'Accepted; the subscription keeps its own identifier' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  identifier?: string;

  @ApiPropertyOptional({ description: 'Accepted and not stored' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ description: 'The topic is created with this name when it does not exist' })
  @Allow()
  topic?: { name?: unknown };

  @ApiPropertyOptional({ description: 'Accepted and not stored: a member receives what its own preferences allow' })
  @Allow()
  preferences?: unknown;
}

export class InboxSubscriptionDto {
  @ApiProperty() id: string;
  @ApiProperty() identifier: string;
  @ApiProperty({ type: [Object], description: 'Always empty: per-subscription preferences are not stored' })
  preferences: never[];
}

export class InboxSubscriptionEnvelopeDto {
  @ApiProperty({ type: InboxSubscriptionDto, nullable: true }) data: InboxSubscriptionDto | null;
}

export class InboxSubscriptionListDto {
  @ApiProperty({ type: [InboxSubscriptionDto] }) data: InboxSubscriptionDto[];
}
