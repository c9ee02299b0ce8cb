import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  ValidateBy,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { TIME_UNITS, WEEK_DAYS, type TimeUnit, type WeekDay } from '#common';
import { nextTimedRelease } from '../digest/timed-digest.js';
import { durationMs, MAX_DEFER_MS } from '../digest/wait-time.js';
import { HttpRequestMetadata } from './http-request-metadata.definition.js';

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

/** Applies decorators as if stacked above a property (bottom first), so messages keep their order. */
const Stacked = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators.reverse());

const Documented = (optional: boolean, options?: ApiPropertyOptions) =>
  optional ? [ApiPropertyOptional(options), IsOptional()] : [ApiProperty(options)];

/** A window's amount, a positive number with amount × `unitProperty` within the cap. */
const WindowAmount = ({ optional = false, unitProperty = 'unit' } = {}) =>
  Stacked(...Documented(optional), IsNumber(), IsPositive(), WithinDeferCap(unitProperty));

const WindowUnit = ({ optional = false } = {}) =>
  Stacked(...Documented(optional, { enum: TIME_UNITS }), IsIn(TIME_UNITS));

/** amount × unit: required for the regular forms, so a workflow cannot fail at run time for want of them. */
class WindowDefinition {
  @WindowAmount() amount: number;
  @WindowUnit() unit: TimeUnit;
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
  @WindowAmount({ optional: true, unitProperty: 'backoffUnit' }) backoffAmount?: number;
  @WindowUnit({ optional: true }) backoffUnit?: TimeUnit;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() updateMode?: boolean;
}

export class DigestTimedMetadata {
  @ApiProperty({ enum: ['timed'] })
  @IsIn(['timed'])
  type: 'timed';

  @WindowAmount({ optional: true }) amount?: number;
  @WindowUnit({ optional: true }) unit?: TimeUnit;
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

/** More runs than this per window is no throttle; the counting query stops there too. */
export const MAX_THROTTLE_THRESHOLD = 10_000;

class ThrottleCounter {
  @ApiPropertyOptional({ default: 1, description: 'Runs let through per window' })
  @IsOptional()
  @IsInt()
  @IsPositive()
  @Max(MAX_THROTTLE_THRESHOLD)
  threshold?: number;

  @ApiPropertyOptional({ description: 'Payload path whose value gives each value its own counter' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  throttleKey?: string;
}

export class ThrottleFixedMetadata extends ThrottleCounter {
  @ApiProperty({ enum: ['fixed'] })
  @IsIn(['fixed'])
  type: 'fixed';

  @WindowAmount() amount: number;
  @WindowUnit() unit: TimeUnit;
}

export class ThrottleDynamicMetadata extends ThrottleCounter {
  @ApiProperty({ enum: ['dynamic'] })
  @IsIn(['dynamic'])
  type: 'dynamic';

  @ApiProperty({ description: 'Payload path of the window: { amount, unit }' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  dynamicKey: string;
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
class ThrottleTypeOnly {
  @IsIn(['fixed', 'dynamic'], { message: 'type must be one of fixed, dynamic for a throttle step' })
  type: string;
}

/** Channel steps carry no metadata: whatever is sent is dropped by the whitelist. */
class NoMetadata {}

/** Per step type, its metadata forms by metadata.type, and the check for a type naming none of them. */
const FORMS: Record<string, { forms: Record<string, new () => object>; unknown: new () => object }> = {
  digest: {
    forms: { regular: DigestRegularMetadata, backoff: DigestRegularMetadata, timed: DigestTimedMetadata },
    unknown: DigestTypeOnly,
  },
  delay: { forms: { regular: DelayRegularMetadata, scheduled: DelayScheduledMetadata }, unknown: DelayTypeOnly },
  throttle: { forms: { fixed: ThrottleFixedMetadata, dynamic: ThrottleDynamicMetadata }, unknown: ThrottleTypeOnly },
};

/** Step types with one metadata form, whatever metadata.type says. */
const SINGLE_FORMS: Record<string, new () => object> = { http_request: HttpRequestMetadata };

/** The step types whose metadata is required, validated and stored; other steps' metadata is dropped. */
export const METADATA_STEPS = new Set([...Object.keys(FORMS), ...Object.keys(SINGLE_FORMS)]);

/**
 * The metadata forms are told apart by the step's template.type and then metadata.type, which
 * class-transformer's own discriminator cannot do (it only looks inside the nested object).
 */
export function toMetadataInstance(stepType: unknown, metadata: unknown): unknown {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return metadata;
  const type = typeof stepType === 'string' ? stepType : '';
  if (Object.hasOwn(SINGLE_FORMS, type)) return plainToInstance(SINGLE_FORMS[type], metadata);
  const entry = Object.hasOwn(FORMS, type) ? FORMS[type] : undefined;
  const formType = (metadata as { type?: unknown }).type;
  if (!entry) return plainToInstance(NoMetadata, metadata);
  const known = typeof formType === 'string' && Object.hasOwn(entry.forms, formType);
  return plainToInstance(known ? entry.forms[formType] : entry.unknown, metadata);
}

export const METADATA_SCHEMAS = [
  DigestRegularMetadata,
  DigestTimedMetadata,
  DelayRegularMetadata,
  DelayScheduledMetadata,
  ThrottleFixedMetadata,
  ThrottleDynamicMetadata,
  HttpRequestMetadata,
];
