import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { RetentionDays } from '#common';
import { retentionOf } from '#application';
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

/** How long the environment keeps its rows; not in Novu (docs/retention.md). */
export class EnvironmentRetentionDto {
  @ApiProperty({ description: 'Days activity is kept: trigger events, notifications, jobs, execution details' })
  activityDays: number;

  @ApiProperty({ description: 'Days messages are kept, of every channel' })
  messagesDays: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "This environment's own activityDays; null: the default",
  })
  activityDaysOverride: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "This environment's own messagesDays; null: the default",
  })
  messagesDaysOverride: number | null;
}

/** A new environment's API key: in the create answer only, the one time the raw key is shown. */
export class EnvironmentApiKeyDto {
  @ApiProperty({ description: 'The raw key; only a hash and an encrypted copy are stored' })
  key: string;

  @ApiProperty({ description: 'Who created it: the id of the API key that made the request' })
  _userId: string;
}

/** Novu's environment shape (the fields @novu/api's EnvironmentResponseDto reads). */
export class EnvironmentResponseDto {
  @ApiProperty()
  _id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  _organizationId: string;

  @ApiProperty({ description: 'Public: the applicationIdentifier browser clients send' })
  identifier: string;

  @ApiProperty({ enum: ['dev', 'prod'], description: '`prod` for Production, `dev` for every other environment' })
  type: 'dev' | 'prod';

  @ApiPropertyOptional({ description: 'The parent environment (Development’s is Production); absent when none' })
  _parentId?: string;

  @ApiPropertyOptional({ description: 'Hex colour for dashboards; absent when none was set' })
  color?: string;

  @ApiPropertyOptional({
    type: [EnvironmentApiKeyDto],
    description: 'Only in the answer of a create: the new environment’s key, shown once. Lists never show keys.',
  })
  apiKeys?: EnvironmentApiKeyDto[];

  @ApiProperty({ description: 'Whether an inbox session needs the subscriber HMAC hash' })
  requireHmac: boolean;

  @ApiProperty({ type: InboxTopicsSettingDto })
  inboxTopics: InboxTopicsSettingDto;

  @ApiProperty({ type: EnvironmentRetentionDto })
  retention: EnvironmentRetentionDto;

  @ApiProperty({
    description: 'The locale of translated content for subscribers whose locale has none',
    example: 'en_US',
  })
  defaultLocale: string;

  /** `defaults`: the deployment's retention (AppConfig), for the days of what the environment does not override. */
  static from(row: Environment, defaults: RetentionDays): EnvironmentResponseDto {
    return {
      _id: row.id,
      name: row.name,
      _organizationId: row.organizationId,
      identifier: row.identifier,
      type: row.name === 'Production' ? 'prod' : 'dev',
      ...(row.parentId ? { _parentId: row.parentId } : {}),
      ...(row.color ? { color: row.color } : {}),
      requireHmac: row.requireHmac,
      inboxTopics: { allow: row.inboxTopicPatterns, maxPerSubscriber: row.inboxTopicsPerSubscriber },
      retention: {
        ...retentionOf(defaults, row),
        activityDaysOverride: row.retentionActivityDays,
        messagesDaysOverride: row.retentionMessagesDays,
      },
      defaultLocale: row.defaultLocale,
    };
  }
}

/** One tag of an environment's workflows. */
export class EnvironmentTagDto {
  @ApiProperty() name: string;
}
