import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { FieldErrors } from '#common';
import { flattenValidationErrors } from '../http/validation.js';
import { CreateSubscriberDto } from './dto/subscriber.dto.js';

/**
 * The rules of `POST /v2/subscribers` (CreateSubscriberDto) for a subscriber object written another
 * way — the inline subscriber of a trigger's `to`, its `actor` — so every write of a subscriber is
 * held to one validation. Errors are keyed under `path`, e.g. `to[0].timezone`; none when valid.
 */
export function subscriberObjectErrors(value: Record<string, unknown>, path: string): FieldErrors {
  const dto = plainToInstance(CreateSubscriberDto, value);
  const errors = validateSync(dto, { forbidUnknownValues: false, validationError: { target: false, value: true } });
  return flattenValidationErrors(errors, path);
}
