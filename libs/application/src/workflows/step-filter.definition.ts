import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsOptional, IsString, ValidateBy, ValidateNested } from 'class-validator';
import { FILTER_ON, FILTER_OPERATORS, FILTER_TYPES, type FilterOperator } from '#common';
import { LIST_OPERATORS, MAX_FILTER_LIST_VALUES, parseList } from '../filters/step-filters.js';

/** A list operator's value holds at most MAX_FILTER_LIST_VALUES values (other operators take one value). */
export const IsBoundedFilterList = () =>
  ValidateBy({
    name: 'isBoundedFilterList',
    validator: {
      validate: (value, args) =>
        typeof value !== 'string' ||
        !LIST_OPERATORS.has((args?.object as { operator?: FilterOperator }).operator as FilterOperator) ||
        parseList(value).length <= MAX_FILTER_LIST_VALUES,
      defaultMessage: () => `value must hold at most ${MAX_FILTER_LIST_VALUES} values for a list operator`,
    },
  });

export class FieldFilterPartDefinition {
  @ApiProperty({ description: 'Dotted path read from the subscriber or the payload' })
  @IsString()
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

  @ApiProperty({ enum: FILTER_ON })
  @IsIn(FILTER_ON)
  on: (typeof FILTER_ON)[number];
}

/** The spec's StepFilter: used by workflow steps and integration conditions. */
export class StepFilterDefinition {
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

  @ApiProperty({ type: [FieldFilterPartDefinition] })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => FieldFilterPartDefinition)
  children: FieldFilterPartDefinition[];
}
