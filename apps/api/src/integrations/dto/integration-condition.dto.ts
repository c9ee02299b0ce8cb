import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength, ValidateBy } from 'class-validator';
import { FILTER_ON } from '#common';
import { filterGroup, filterPartFields } from '../../workflows/dto/step-filter.definition.js';

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

class IntegrationConditionPartDto extends filterPartFields(CONDITION_ON) {
  @ApiProperty({
    description: 'Dotted path read from the subscriber, the payload or the tenant (identifier, data.<key>)',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @IsTenantField()
  field: string;
}

/** The spec's StepFilter shape, evaluated at delivery like a step's filters. */
export class IntegrationConditionDto extends filterGroup(IntegrationConditionPartDto, MAX_CONDITION_PARTS) {}
