import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, ValidateBy } from 'class-validator';
import { LIST_OPERATORS, MAX_FILTER_LIST_VALUES, parseList } from '#application';
import { FILTER_ON, FILTER_OPERATORS, FILTER_TYPES, type FilterOperator } from '#common';
import { EachNested } from '../../http/each-nested.js';

/** A list operator's value holds at most MAX_FILTER_LIST_VALUES values (other operators take one value). */
const IsBoundedFilterList = () =>
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

/**
 * A filter part's value, operator and `on`, for the sources `on` may name; the subclass adds `field`,
 * whose rules depend on those sources. A factory rather than one base class whose `on` a subclass
 * redeclares: each class gets its `on` rule and documented enum once, with nothing inherited to override.
 */
export function filterPartFields<const On extends readonly string[]>(sources: On) {
  abstract class FilterPartFields {
    @ApiProperty({
      description: `For IN, NOT_IN, ALL_IN, ANY_IN, BETWEEN, NOT_BETWEEN: a comma-separated list or a JSON array of at most ${MAX_FILTER_LIST_VALUES} values`,
    })
    @IsString()
    @IsBoundedFilterList()
    value: string;

    @ApiProperty({ enum: FILTER_OPERATORS })
    @IsIn(FILTER_OPERATORS)
    operator: (typeof FILTER_OPERATORS)[number];

    @ApiProperty({ enum: sources })
    @IsIn(sources)
    on: On[number];
  }
  return FilterPartFields;
}

/** No decorator when the list has no cap. */
const AtMostParts = (maxParts: number | undefined): PropertyDecorator =>
  maxParts === undefined ? () => undefined : ArrayMaxSize(maxParts);

/** The spec's StepFilter shape over one part class, with `children` capped at `maxParts` when given. */
export function filterGroup<Part extends object>(part: new () => Part, maxParts?: number) {
  abstract class FilterGroup {
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

    @ApiProperty({ type: [part], maxItems: maxParts })
    @IsArray()
    @AtMostParts(maxParts)
    @EachNested(() => part)
    children: Part[];
  }
  return FilterGroup;
}

class FieldFilterPartDefinition extends filterPartFields(FILTER_ON) {
  @ApiProperty({ description: 'Dotted path read from the subscriber or the payload' })
  @IsString()
  field: string;
}

/** The spec's StepFilter of a workflow step. */
export class StepFilterDefinition extends filterGroup(FieldFilterPartDefinition) {}
