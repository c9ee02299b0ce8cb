import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { FILTER_ON, FILTER_OPERATORS, FILTER_TYPES } from '#common';

export class FieldFilterPartDefinition {
  @ApiProperty({ description: 'Dotted path read from the subscriber or the payload' })
  @IsString()
  field: string;

  @ApiProperty()
  @IsString()
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
