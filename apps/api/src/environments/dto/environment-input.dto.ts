import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsLocale } from '../../translations/dto/translation-input.dto.js';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsHexColor,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from '#common';
import { OptionalNotNull } from '../../http/optional-not-null.js';

const TRIMMED = /^\S(.*\S)?$/s;
const TRIMMED_MESSAGE = '$property must not be blank or start or end with whitespace';

export class CreateEnvironmentDto {
  @ApiProperty({ description: 'Unique in the organization', maxLength: 100 })
  @IsString()
  @MaxLength(100)
  @Matches(TRIMMED, { message: TRIMMED_MESSAGE })
  name: string;

  @ApiProperty({ description: 'Hex colour, e.g. #ff8547', maxLength: 9 })
  @IsString()
  @MaxLength(9)
  @IsHexColor()
  color: string;

  @ApiPropertyOptional({ description: "An environment of the organization; default: the organization's Production" })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  parentId?: string;
}

const retentionDays = (what: string) =>
  ({
    type: 'integer',
    minimum: RETENTION_DAYS_MIN,
    maximum: RETENTION_DAYS_MAX,
    nullable: true,
    description: `Days this environment keeps its ${what}; null: the deployment's default. Omit to keep the current value.`,
  }) as const;

/** Not in Novu: this environment's retention, overriding the deployment's (docs/retention.md). */
export class RetentionOverridesDto {
  @ApiPropertyOptional(retentionDays('activity (trigger events, notifications, jobs, execution details)'))
  @IsOptional()
  @IsInt()
  @Min(RETENTION_DAYS_MIN)
  @Max(RETENTION_DAYS_MAX)
  activityDays?: number | null;

  @ApiPropertyOptional(retentionDays('messages, of every channel'))
  @IsOptional()
  @IsInt()
  @Min(RETENTION_DAYS_MIN)
  @Max(RETENTION_DAYS_MAX)
  messagesDays?: number | null;
}

/** Novu's `dns` and `bridge` settings are hosted features: they are not part of this body and are ignored. */
export class UpdateEnvironmentDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'Development and Production keep their names' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  @Matches(TRIMMED, { message: TRIMMED_MESSAGE })
  name?: string;

  @ApiPropertyOptional({
    description: 'The public applicationIdentifier: 8 to 64 letters, digits, - or _; unique',
    maxLength: 64,
  })
  @OptionalNotNull()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{8,64}$/, { message: 'identifier must be 8 to 64 letters, digits, - or _' })
  identifier?: string;

  @ApiPropertyOptional({ maxLength: 9 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(9)
  @IsHexColor()
  color?: string;

  @ApiPropertyOptional({ description: 'Another environment of the organization' })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  parentId?: string;

  @ApiPropertyOptional({ type: RetentionOverridesDto })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => RetentionOverridesDto)
  retention?: RetentionOverridesDto;

  @ApiPropertyOptional({
    description: "Not in Novu's API: the locale of translated content for subscribers whose locale has none",
    example: 'en_US',
  })
  @OptionalNotNull()
  @IsLocale()
  defaultLocale?: string;

  @ApiPropertyOptional({
    description:
      "Not in Novu's API: inbox sessions must prove their subscriberId with a subscriberHash. Turning it on ends the open sessions that did not.",
  })
  @OptionalNotNull()
  @IsBoolean()
  requireHmac?: boolean;
}
