import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { FILTER_ON, FILTER_OPERATORS, FILTER_TYPES } from '#common';
import { IsBoundedFilterList, MAX_FILTER_LIST_VALUES } from '#application';

/** Integration conditions read the tenant too: routing a tenant's messages through its own provider. */
const CONDITION_ON = [...FILTER_ON, 'tenant'] as const;
export const MAX_CONDITIONS = 20;
const MAX_CONDITION_PARTS = 50;

/** A condition on the tenant reads what a tenant has: its identifier or a path in its data. */
const IsTenantField = () =>
  ValidateBy({
    name: 'isTenantField',
    validator: {
      validate: (value, args) =>
        (args?.object as { on?: string }).on !== 'tenant' ||
        (typeof value === 'string' && (value === 'identifier' || /^data(\.|\[|$)/.test(value))),
      defaultMessage: () => 'field of a tenant condition must be identifier or a path in data (data.<key>)',
    },
  });

export class IntegrationConditionPartDto {
  @ApiProperty({
    description: 'Dotted path read from the subscriber, the payload or the tenant (identifier, data.<key>)',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @IsTenantField()
  field: string;

  @ApiProperty({
    description: `For IN, NOT_IN, ALL_IN, ANY_IN, BETWEEN, NOT_BETWEEN: a comma-separated list or a JSON array of at most ${MAX_FILTER_LIST_VALUES} values`,
  })
  @IsString()
  @IsBoundedFilterList()
  value: string;

  @ApiProperty({ enum: FILTER_OPERATORS })
  @IsIn(FILTER_OPERATORS)
  operator: (typeof FILTER_OPERATORS)[number];

  @ApiProperty({ enum: CONDITION_ON })
  @IsIn(CONDITION_ON)
  on: (typeof CONDITION_ON)[number];
}

/** The spec's StepFilter shape, evaluated at delivery like a step's filters. */
export class IntegrationConditionDto {
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  isNegated?: boolean;

  @ApiPropertyOptional({ enum: FILTER_TYPES })
  @IsOptional()
  @IsIn(FILTER_TYPES)
  type?: (typeof FILTER_TYPES)[number];

  @ApiProperty({ enum: ['AND', 'OR'] })
  @IsIn(['AND', 'OR'])
  value: 'AND' | 'OR';

  @ApiProperty({ type: [IntegrationConditionPartDto], maxItems: MAX_CONDITION_PARTS })
  @IsArray()
  @ArrayMaxSize(MAX_CONDITION_PARTS)
  @ValidateNested({ each: true })
  @Type(() => IntegrationConditionPartDto)
  children: IntegrationConditionPartDto[];
}
