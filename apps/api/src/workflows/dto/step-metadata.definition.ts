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
import { durationMs, MAX_DEFER_MS, nextTimedRelease } from '#application';
import { TIME_UNITS, WEEK_DAYS, type MetadataStepType, type TimeUnit, type WeekDay } from '#common';
import { HttpRequestMetadata } from './http-request-metadata.definition.js';

const ORDINALS = ['1', '2', '3', '4', '5', 'last'] as const;
const ORDINAL_VALUES = ['day', 'weekday', 'weekend', ...WEEK_DAYS] as const;
const MONTHLY_TYPES = ['each', 'on'] as const;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

class TimedConfigDefinition {
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

class DigestRegularMetadata extends WindowDefinition {
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

class DigestTimedMetadata {
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

class DelayRegularMetadata extends WindowDefinition {
  @ApiProperty({ enum: ['regular'] })
  @IsIn(['regular'])
  type: 'regular';
}

class DelayScheduledMetadata {
  @ApiProperty({ enum: ['scheduled'] })
  @IsIn(['scheduled'])
  type: 'scheduled';

  @ApiProperty({ description: 'Payload path of the ISO date to wait for' })
  @IsString()
  @IsNotEmpty()
  delayPath: string;
}

/** More runs than this per window is no throttle; the counting query stops there too. */
const MAX_THROTTLE_THRESHOLD = 10_000;

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

class ThrottleFixedMetadata extends ThrottleCounter {
  @ApiProperty({ enum: ['fixed'] })
  @IsIn(['fixed'])
  type: 'fixed';

  @WindowAmount() amount: number;
  @WindowUnit() unit: TimeUnit;
}

class ThrottleDynamicMetadata extends ThrottleCounter {
  @ApiProperty({ enum: ['dynamic'] })
  @IsIn(['dynamic'])
  type: 'dynamic';

  @ApiProperty({ description: 'Payload path of the window: { amount, unit }' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  dynamicKey: string;
}

type MetadataForm = new () => object;

/**
 * The metadata forms of every step type with metadata (its STEP_REGISTRY entry in libs/common says
 * so): by metadata.type, or one class whatever metadata.type says. Typed by those step types, so a
 * step type declared with metadata and given no forms here, or the other way round, fails tsc.
 */
const METADATA_FORMS = {
  digest: { regular: DigestRegularMetadata, backoff: DigestRegularMetadata, timed: DigestTimedMetadata },
  delay: { regular: DelayRegularMetadata, scheduled: DelayScheduledMetadata },
  throttle: { fixed: ThrottleFixedMetadata, dynamic: ThrottleDynamicMetadata },
  http_request: HttpRequestMetadata,
} satisfies Record<MetadataStepType, MetadataForm | Record<string, MetadataForm>>;

/** Only carries the `type` check, for metadata whose type names none of its step type's forms. */
function unknownFormOf(stepType: string, formTypes: string[]): MetadataForm {
  class UnknownForm {
    @IsIn(formTypes, { message: `type must be one of ${formTypes.join(', ')} for a ${stepType} step` })
    type: string;
  }
  return UnknownForm;
}

const FORMS_BY_STEP_TYPE: [string, MetadataForm | Record<string, MetadataForm>][] = Object.entries(METADATA_FORMS);

/** Per step type with metadata, the class that validates its metadata, chosen by metadata.type. */
const FORM_OF = new Map<string, (formType: unknown) => MetadataForm>(
  FORMS_BY_STEP_TYPE.map(([stepType, byType]) => {
    if (typeof byType === 'function') return [stepType, () => byType];
    const unknown = unknownFormOf(stepType, Object.keys(byType));
    const formOf = (formType: unknown) =>
      typeof formType === 'string' && Object.hasOwn(byType, formType) ? byType[formType] : unknown;
    return [stepType, formOf];
  }),
);

/** Channel steps carry no metadata: whatever is sent is dropped by the whitelist. */
class NoMetadata {}

/**
 * The metadata forms are told apart by the step's template.type and then metadata.type, which
 * class-transformer's own discriminator cannot do (it only looks inside the nested object).
 */
export function toMetadataInstance(stepType: unknown, metadata: unknown): unknown {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return metadata;
  const formOf = typeof stepType === 'string' ? FORM_OF.get(stepType) : undefined;
  return plainToInstance(formOf?.((metadata as { type?: unknown }).type) ?? NoMetadata, metadata);
}

/** Every metadata form once, for the API document. */
export const METADATA_SCHEMAS = [
  ...new Set(FORMS_BY_STEP_TYPE.flatMap(([, forms]) => (typeof forms === 'function' ? [forms] : Object.values(forms)))),
];
