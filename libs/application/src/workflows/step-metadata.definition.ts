import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  ValidateBy,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { TIME_UNITS, WEEK_DAYS, type TimeUnit, type WeekDay } from '#common';
import { nextTimedRelease } from '../digest/timed-digest.js';
import { durationMs, MAX_DEFER_MS } from '../digest/wait-time.js';

const ORDINALS = ['1', '2', '3', '4', '5', 'last'] as const;
const ORDINAL_VALUES = ['day', 'weekday', 'weekend', ...WEEK_DAYS] as const;
const MONTHLY_TYPES = ['each', 'on'] as const;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

export class TimedConfigDefinition {
  @ApiPropertyOptional({ example: '09:30', description: '24-hour HH:mm in the subscriber timezone' })
  @IsOptional()
  @Matches(HH_MM, { message: 'atTime must be a time as HH:mm' })
  atTime?: string;

  @ApiPropertyOptional({ enum: WEEK_DAYS, isArray: true })
  @IsOptional()
  @IsArray()
  @IsIn(WEEK_DAYS, { each: true })
  weekDays?: WeekDay[];

  @ApiPropertyOptional({ type: [String], example: ['1', '15'] })
  @IsOptional()
  @IsArray()
  @Matches(/^([1-9]|[12]\d|3[01])$/, { each: true, message: 'monthDays must hold days of the month, 1 to 31' })
  monthDays?: string[];

  @ApiPropertyOptional({ enum: ORDINALS })
  @IsOptional()
  @IsIn(ORDINALS)
  ordinal?: (typeof ORDINALS)[number];

  @ApiPropertyOptional({ enum: ORDINAL_VALUES })
  @IsOptional()
  @IsIn(ORDINAL_VALUES)
  ordinalValue?: (typeof ORDINAL_VALUES)[number];

  @ApiPropertyOptional({ enum: MONTHLY_TYPES })
  @IsOptional()
  @IsIn(MONTHLY_TYPES)
  monthlyType?: (typeof MONTHLY_TYPES)[number];
}

/**
 * amount × `unitProperty` within the 180-day cap, so a wait that could never be scheduled is refused
 * at save instead of failing every run. A missing or unknown unit is the unit's own error.
 */
const WithinDeferCap = (unitProperty: string) =>
  ValidateBy({
    name: 'withinDeferCap',
    validator: {
      validate: (amount: unknown, args?: ValidationArguments) => {
        const ms = durationMs(amount, (args?.object as Record<string, unknown> | undefined)?.[unitProperty]);
        return ms === undefined || ms <= MAX_DEFER_MS;
      },
      defaultMessage: () => `$property × ${unitProperty} must be at most 180 days`,
    },
  });

/** A timed digest whose calendar never matches a day (e.g. weekend days that must be weekdays) never fires. */
const FiresWithinAYear = () =>
  ValidateBy({
    name: 'firesWithinAYear',
    validator: {
      validate: (_timed: unknown, args?: ValidationArguments) => {
        const metadata = args?.object as DigestTimedMetadata | undefined;
        if (!metadata || ['seconds', 'minutes', 'hours'].includes(String(metadata.unit))) return true;
        return nextTimedRelease(metadata, 'UTC', new Date()) !== undefined;
      },
      defaultMessage: () => '$property matches no day of the coming year: the digest would never be sent',
    },
  });

/** amount × unit: required for the regular forms, so a workflow cannot fail at run time for want of them. */
class WindowDefinition {
  @ApiProperty()
  @IsNumber()
  @IsPositive()
  @WithinDeferCap('unit')
  amount: number;

  @ApiProperty({ enum: TIME_UNITS })
  @IsIn(TIME_UNITS)
  unit: TimeUnit;
}

export class DigestRegularMetadata extends WindowDefinition {
  @ApiProperty({ enum: ['regular', 'backoff'] })
  @IsIn(['regular', 'backoff'])
  type: 'regular' | 'backoff';

  @ApiPropertyOptional({ description: 'Payload path whose value groups events into separate digests' })
  @IsOptional()
  @IsString()
  digestKey?: string;

  @ApiPropertyOptional() @IsOptional() @IsBoolean() backoff?: boolean;
  @ApiPropertyOptional()
  @IsOptional()
  @IsNumber()
  @IsPositive()
  @WithinDeferCap('backoffUnit')
  backoffAmount?: number;
  @ApiPropertyOptional({ enum: TIME_UNITS }) @IsOptional() @IsIn(TIME_UNITS) backoffUnit?: TimeUnit;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() updateMode?: boolean;
}

export class DigestTimedMetadata {
  @ApiProperty({ enum: ['timed'] })
  @IsIn(['timed'])
  type: 'timed';

  @ApiPropertyOptional() @IsOptional() @IsNumber() @IsPositive() @WithinDeferCap('unit') amount?: number;
  @ApiPropertyOptional({ enum: TIME_UNITS }) @IsOptional() @IsIn(TIME_UNITS) unit?: TimeUnit;
  @ApiPropertyOptional() @IsOptional() @IsString() digestKey?: string;

  @ApiPropertyOptional({ type: TimedConfigDefinition })
  @IsOptional()
  @ValidateNested()
  @FiresWithinAYear()
  @Type(() => TimedConfigDefinition)
  timed?: TimedConfigDefinition;
}

export class DelayRegularMetadata extends WindowDefinition {
  @ApiProperty({ enum: ['regular'] })
  @IsIn(['regular'])
  type: 'regular';
}

export class DelayScheduledMetadata {
  @ApiProperty({ enum: ['scheduled'] })
  @IsIn(['scheduled'])
  type: 'scheduled';

  @ApiProperty({ description: 'Payload path of the ISO date to wait for' })
  @IsString()
  @IsNotEmpty()
  delayPath: string;
}

/** Only carries the `type` check, for a digest/delay whose metadata.type names no known form. */
class DigestTypeOnly {
  @IsIn(['regular', 'backoff', 'timed'], { message: 'type must be one of regular, backoff, timed for a digest step' })
  type: string;
}
class DelayTypeOnly {
  @IsIn(['regular', 'scheduled'], { message: 'type must be one of regular, scheduled for a delay step' })
  type: string;
}

/** Channel steps carry no metadata: whatever is sent is dropped by the whitelist. */
class NoMetadata {}

const FORMS: Record<string, Record<string, new () => object>> = {
  digest: { regular: DigestRegularMetadata, backoff: DigestRegularMetadata, timed: DigestTimedMetadata },
  delay: { regular: DelayRegularMetadata, scheduled: DelayScheduledMetadata },
};

/**
 * The four metadata forms are told apart by the step's template.type and then metadata.type, which
 * class-transformer's own discriminator cannot do (it only looks inside the nested object).
 */
export function toMetadataInstance(stepType: unknown, metadata: unknown): unknown {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return metadata;
  const forms = typeof stepType === 'string' && Object.hasOwn(FORMS, stepType) ? FORMS[stepType] : undefined;
  const formType = (metadata as { type?: unknown }).type;
  if (!forms) return plainToInstance(NoMetadata, metadata);
  const known = typeof formType === 'string' && Object.hasOwn(forms, formType);
  const form = known ? forms[formType] : stepType === 'digest' ? DigestTypeOnly : DelayTypeOnly;
  return plainToInstance(form, metadata);
}

export const METADATA_SCHEMAS = [
  DigestRegularMetadata,
  DigestTimedMetadata,
  DelayRegularMetadata,
  DelayScheduledMetadata,
];
