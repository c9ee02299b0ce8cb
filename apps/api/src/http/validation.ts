import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError, type FieldErrors } from '#common';

function childPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/** Flattens class-validator's tree into `{ "steps[1].metadata.unit": { messages, value } }`. */
export function flattenValidationErrors(errors: ValidationError[], parent = '', into: FieldErrors = {}): FieldErrors {
  for (const error of errors) {
    const path = childPath(parent, error.property);
    if (error.constraints) {
      into[path] = { messages: Object.values(error.constraints), value: error.value };
    }
    if (error.children?.length) flattenValidationErrors(error.children, path, into);
  }
  return into;
}

export function validationFailed(fieldErrors: FieldErrors): DomainError {
  const first = Object.entries(fieldErrors)[0];
  const message = first ? first[1].messages[0] : 'Validation failed';
  return new DomainError('VALIDATION_FAILED', message, fieldErrors);
}

/** DTO validation for every route: unknown properties stripped, failures are 422 with per-field messages. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => validationFailed(flattenValidationErrors(errors)),
  });
}
