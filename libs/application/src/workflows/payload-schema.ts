import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import safeRegex from 'safe-regex2';
import type { FieldErrors } from '#common';

/** A payload schema is authored by hand; beyond this it is data, not a schema. */
export const MAX_PAYLOAD_SCHEMA_BYTES = 64 * 1024;

/** Compiled validators kept per schema text: a trigger checks its payload with the workflow's compiled schema. */
const MAX_COMPILED = 500;

/**
 * One Ajv for every environment: compiled schemas are not added to it (`addUsedSchema: false`), so one
 * environment's schema can never be reached by another's `$ref`; remote refs are never fetched (only
 * compileAsync would) and fail at save; `allErrors` stays off so a hostile payload stops at its first error.
 */
const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: false, addUsedSchema: false });
const compiled = new Map<string, ValidateFunction>();
/** The workflow cache hands out the same row for a while: its schema object finds its validator without serializing. */
const bySchemaObject = new WeakMap<object, ValidateFunction>();

function compile(schema: Record<string, unknown>): ValidateFunction {
  const known = bySchemaObject.get(schema);
  if (known) return known;
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, validate);
  }
  bySchemaObject.set(schema, validate);
  return validate;
}

/** The regular expressions of a schema: `pattern` values and `patternProperties` keys, at any depth. */
function patternsOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => patternsOf(item, into));
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (key === 'pattern' && typeof item === 'string') into.push(item);
      if (key === 'patternProperties' && item && typeof item === 'object') into.push(...Object.keys(item));
      patternsOf(item, into);
    }
  return into;
}

/**
 * JavaScript regular expressions cannot be interrupted: one with nested quantifiers (`(a+)+`) can
 * spend seconds on a short payload string and stall every request of the process, so such a
 * pattern is refused when the schema is saved.
 */
function patternError(schema: unknown): string | undefined {
  for (const pattern of patternsOf(schema)) {
    try {
      new RegExp(pattern, 'u');
    } catch {
      return `has a pattern that is not a regular expression: ${pattern}`;
    }
    if (!safeRegex(pattern))
      return `has a pattern that may take exponential time to match (nested quantifiers): ${pattern}`;
  }
  return undefined;
}

/** Why a payload schema cannot be saved, or undefined when it is a usable JSON Schema. */
export function payloadSchemaError(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'must be a JSON Schema object';
  if (Buffer.byteLength(JSON.stringify(schema)) > MAX_PAYLOAD_SCHEMA_BYTES)
    return `must be at most ${MAX_PAYLOAD_SCHEMA_BYTES} bytes as JSON`;
  if (!ajv.validateSchema(schema)) return `is not a valid JSON Schema: ${ajv.errorsText(ajv.errors)}`;
  const badPattern = patternError(schema);
  if (badPattern) return badPattern;
  try {
    compile(schema as Record<string, unknown>);
    return undefined;
  } catch (error) {
    return `is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** `/user/name` → `payload.user.name`; the root is `payload`. */
function payloadPath(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const missing =
    error.keyword === 'required' ? [String((error.params as { missingProperty?: unknown }).missingProperty)] : [];
  return ['payload', ...segments, ...missing].join('.');
}

/**
 * The trigger payload's errors against the workflow's schema, keyed by the failing path
 * (`payload.orderId`); empty when it matches. A schema that no longer compiles refuses nothing.
 */
export function payloadErrors(schema: Record<string, unknown>, payload: unknown): FieldErrors {
  let validate: ValidateFunction;
  try {
    validate = compile(schema);
  } catch {
    return {};
  }
  if (validate(payload ?? {})) return {};
  const [error] = validate.errors ?? [];
  if (!error) return {};
  return { [payloadPath(error)]: { messages: [`${payloadPath(error)} ${error.message ?? 'is invalid'}`] } };
}
