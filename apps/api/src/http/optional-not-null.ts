import { ValidateIf } from 'class-validator';

/**
 * Like @IsOptional(), but only for a missing property: an explicit null still goes through the
 * other validators (and fails them), for fields that cannot be cleared.
 */
export const OptionalNotNull = () => ValidateIf((_object, value) => value !== undefined);
