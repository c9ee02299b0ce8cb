import { ApiProperty } from '@nestjs/swagger';
import type { Environment } from '#dal';

/** Which topics inbox sessions may join; not in Novu, whose sessions may join any topic. */
export class InboxTopicsSettingDto {
  @ApiProperty({
    type: [String],
    description:
      'Topic keys, or prefixes ending in *, that inbox sessions may join or create; empty (the default): none',
  })
  allow: string[];

  @ApiProperty({ description: 'How many topics one subscriber may join through inbox sessions' })
  maxPerSubscriber: number;
}

/** Novu's environment shape (the fields @novu/api's EnvironmentResponseDto reads); no API keys: they are stored hashed. */
export class EnvironmentResponseDto {
  @ApiProperty()
  _id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  _organizationId: string;

  @ApiProperty({ description: 'Public: the applicationIdentifier browser clients send' })
  identifier: string;

  @ApiProperty({ enum: ['dev', 'prod'] })
  type: 'dev' | 'prod';

  @ApiProperty({ description: 'Whether an inbox session needs the subscriber HMAC hash' })
  requireHmac: boolean;

  @ApiProperty({ type: InboxTopicsSettingDto })
  inboxTopics: InboxTopicsSettingDto;

  static from(row: Environment): EnvironmentResponseDto {
    return {
      _id: row.id,
      name: row.name,
      _organizationId: row.organizationId,
      identifier: row.identifier,
      type: row.name === 'Production' ? 'prod' : 'dev',
      requireHmac: row.requireHmac,
      inboxTopics: { allow: row.inboxTopicPatterns, maxPerSubscriber: row.inboxTopicsPerSubscriber },
    };
  }
}
