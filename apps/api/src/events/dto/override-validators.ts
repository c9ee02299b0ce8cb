import { EMAIL_ADDRESS_RULE, isEmailAddress, type FieldErrors } from '#common';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys of `overrides` that are not provider overrides. */
const CHANNEL_KEYS = ['email', 'sms', 'chat', 'push'] as const;
const OTHER_KEYS = new Set(['in_app', 'providers', 'steps', 'layoutIdentifier']);
const MAX_IDENTIFIER = 255;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const HEADER_VALUE = /^[^\r\n\0]{0,8000}$/;

type Check = (value: unknown) => string | undefined;

const string: Check = (value) => (typeof value === 'string' ? undefined : 'must be a string');
const identifier: Check = (value) =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_IDENTIFIER
    ? undefined
    : `must be an integration identifier (a string of 1 to ${MAX_IDENTIFIER} characters)`;
const stringOrList: Check = (value) =>
  typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    ? undefined
    : 'must be a string or an array of strings';
const address: Check = (value) => (isEmailAddress(value) ? undefined : `must be ${EMAIL_ADDRESS_RULE}`);
/** One address or a list of them (checkFields checks a list's entries one by one). */
const addresses: Check = address;

/** The message fields each level may hold, by the channel whose rules apply. */
const EMAIL_FIELDS: Record<string, Check> = {
  to: addresses,
  cc: addresses,
  bcc: addresses,
  replyTo: address,
  from: address,
  senderName: string,
  integrationIdentifier: identifier,
};
const CHANNEL_FIELDS: Record<(typeof CHANNEL_KEYS)[number], Record<string, Check>> = {
  email: EMAIL_FIELDS,
  sms: { to: string, from: string, content: string, integrationIdentifier: identifier },
  chat: { content: string, integrationIdentifier: identifier },
  push: { title: string, content: string, integrationIdentifier: identifier },
};
/** A provider or step override may be of any channel: its message fields are checked by type only. */
const ANY_CHANNEL_FIELDS: Record<string, Check> = {
  to: stringOrList,
  from: string,
  cc: addresses,
  bcc: addresses,
  replyTo: address,
  senderName: string,
  title: string,
  content: string,
  integrationIdentifier: identifier,
};

/** Address lists are checked entry by entry, keyed like `overrides.email.cc[1]`. */
function checkFields(value: Record<string, unknown>, checks: Record<string, Check>, path: string, errors: FieldErrors) {
  for (const [field, check] of Object.entries(checks)) {
    const entries =
      check === addresses && Array.isArray(value[field])
        ? (value[field] as unknown[]).map((item, index) => [`${path}.${field}[${index}]`, item, address] as const)
        : [[`${path}.${field}`, value[field], check] as const];
    for (const [at, item, entryCheck] of entries) {
      const message = item === undefined ? undefined : entryCheck(item);
      if (message) errors[at] = { messages: [`${field} ${message}`], value: item };
    }
  }
}

function objectAt(value: unknown, path: string, errors: FieldErrors): value is Record<string, unknown> {
  if (isPlainObject(value)) return true;
  errors[path] = { messages: [`${path.split('.').at(-1)} must be an object`], value };
  return false;
}

/** `_passthrough`: body an object, headers and query maps of safe strings. */
function checkPassthrough(value: unknown, path: string, errors: FieldErrors) {
  if (!objectAt(value, path, errors)) return;
  if (value.body !== undefined) objectAt(value.body, `${path}.body`, errors);
  if (value.headers !== undefined && objectAt(value.headers, `${path}.headers`, errors)) {
    for (const [name, header] of Object.entries(value.headers))
      if (!HEADER_NAME.test(name) || typeof header !== 'string' || !HEADER_VALUE.test(header))
        errors[`${path}.headers.${name}`] = {
          messages: ['headers must map header names to single-line strings'],
          value: header,
        };
  }
  if (value.query !== undefined && objectAt(value.query, `${path}.query`, errors)) {
    for (const [name, item] of Object.entries(value.query))
      if (!['string', 'number', 'boolean'].includes(typeof item))
        errors[`${path}.query.${name}`] = {
          messages: ['query values must be strings, numbers or booleans'],
          value: item,
        };
  }
}

function checkProviderOverride(value: unknown, path: string, errors: FieldErrors) {
  if (!objectAt(value, path, errors)) return;
  checkFields(value, ANY_CHANNEL_FIELDS, path, errors);
  if (value._passthrough !== undefined) checkPassthrough(value._passthrough, `${path}._passthrough`, errors);
}

function checkProviderMap(value: unknown, path: string, errors: FieldErrors) {
  if (!objectAt(value, path, errors)) return;
  for (const [providerId, override] of Object.entries(value))
    checkProviderOverride(override, `${path}.${providerId}`, errors);
}

/**
 * The shape of a trigger's `overrides` (docs/providers.md, "Trigger overrides"): channel fields of the right
 * type (email addresses one address each), provider overrides and steps as objects, `_passthrough` headers that
 * cannot split a request. Unknown fields inside a provider override are the provider's own.
 */
export function overrideErrors(overrides: unknown): FieldErrors {
  const errors: FieldErrors = {};
  if (!isPlainObject(overrides)) return errors;
  for (const [key, value] of Object.entries(overrides)) {
    const path = `overrides.${key}`;
    if ((CHANNEL_KEYS as readonly string[]).includes(key)) {
      if (objectAt(value, path, errors))
        checkFields(value, CHANNEL_FIELDS[key as (typeof CHANNEL_KEYS)[number]], path, errors);
    } else if (key === 'providers') {
      checkProviderMap(value, path, errors);
    } else if (key === 'steps') {
      if (!objectAt(value, path, errors)) continue;
      for (const [stepId, step] of Object.entries(value)) {
        const stepPath = `${path}.${stepId}`;
        if (!objectAt(step, stepPath, errors)) continue;
        checkFields(step, ANY_CHANNEL_FIELDS, stepPath, errors);
        if (step.providers !== undefined) checkProviderMap(step.providers, `${stepPath}.providers`, errors);
      }
    } else if (!OTHER_KEYS.has(key)) {
      checkProviderOverride(value, path, errors);
    }
  }
  return errors;
}
