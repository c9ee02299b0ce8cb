import { registerDecorator, type ValidationOptions } from 'class-validator';
import type { FieldErrors } from '#common';
import { isValidSubscriberId, MAX_RECIPIENTS } from '#application';
import { subscriberObjectErrors } from '../../subscribers/subscriber-validation.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

function rule(name: string, message: string, check: (value: unknown) => boolean) {
  return (options?: ValidationOptions) => (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate: check },
    });
}

/** `to`: one recipient, or a list of at most MAX_RECIPIENTS. */
export const IsRecipientList = rule(
  'isRecipientList',
  `to may list at most ${MAX_RECIPIENTS} recipients: send to a topic to reach more`,
  (value) => !Array.isArray(value) || value.length <= MAX_RECIPIENTS,
);

/** `actor`: a subscriberId or a subscriber object with a subscriberId. */
export const IsActor = rule(
  'isActor',
  'actor must be a subscriberId or an object with a subscriberId',
  (value) => nonEmptyString(value) || (isPlainObject(value) && nonEmptyString(value.subscriberId)),
);

/** `tenant`: an identifier or `{identifier, name?, data?}`. */
export const IsTenantRef = rule(
  'isTenantRef',
  'tenant must be an identifier or an object with an identifier',
  (value) =>
    nonEmptyString(value) ||
    (isPlainObject(value) &&
      nonEmptyString(value.identifier) &&
      (value.name === undefined || typeof value.name === 'string') &&
      (value.data === undefined || value.data === null || isPlainObject(value.data))),
);

// Neither a type nor an id holds ':', so each `type:id` of the messages' contextKeys reads back one way.
const CONTEXT_ID = /^[a-zA-Z0-9_-]{1,100}$/;
const MAX_CONTEXT_KEYS = 5;
const MAX_CONTEXT_DATA_BYTES = 64 * 1024;

const isContextData = (data: unknown) =>
  data === undefined || (isPlainObject(data) && Buffer.byteLength(JSON.stringify(data)) <= MAX_CONTEXT_DATA_BYTES);

/** `context`: at most 5 types (keys), each mapped to an id or `{id, data?}`, each data at most 64 KB of JSON. */
export const IsContext = rule(
  'isContext',
  'context must map at most 5 types (letters, digits, _ or -) to an id or {id, data}; ids of at most 100 letters, digits, _ or -; data an object of at most 64 KB',
  (value) => {
    if (!isPlainObject(value)) return false;
    const entries = Object.entries(value);
    if (entries.length > MAX_CONTEXT_KEYS) return false;
    return entries.every(
      ([type, entry]) =>
        CONTEXT_ID.test(type) &&
        ((typeof entry === 'string' && CONTEXT_ID.test(entry)) ||
          (isPlainObject(entry) &&
            typeof entry.id === 'string' &&
            CONTEXT_ID.test(entry.id) &&
            isContextData(entry.data))),
    );
  },
);

/**
 * The subscribers a trigger writes — each subscriber object of `to` (one the fan-out would upsert:
 * not a topic, with a valid subscriberId) and an `actor` object — checked with the rules of the
 * subscribers API, keyed `to.<field>`, `to[i].<field>` or `actor.<field>`. Entries the fan-out drops
 * (a bad subscriberId, not an object) are left to the `invalid_recipients` answer.
 */
export function writtenSubscriberErrors(to: unknown, actor: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const check = (value: unknown, path: string) => {
    if (isPlainObject(value) && value.type !== 'Topic' && isValidSubscriberId(value.subscriberId))
      Object.assign(errors, subscriberObjectErrors(value, path));
  };
  if (Array.isArray(to)) to.forEach((item, index) => check(item, `to[${index}]`));
  else check(to, 'to');
  if (isPlainObject(actor)) Object.assign(errors, subscriberObjectErrors(actor, 'actor'));
  return errors;
}
