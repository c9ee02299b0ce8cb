import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { getMetadataStorage, validateSync } from 'class-validator';
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

function validationFailed(fieldErrors: FieldErrors): DomainError {
  const first = Object.entries(fieldErrors)[0];
  const message = first ? first[1].messages[0] : 'Validation failed';
  return new DomainError('VALIDATION_FAILED', message, fieldErrors);
}

let metadataMemoized = false;

/**
 * class-validator resolves a class's rules on every validate() call by testing every registered
 * class for inheritance, and offers no public way to cache that answer:
 * https://github.com/typestack/class-validator/issues/2686. That lookup is the largest single cost
 * of validating a trigger's events: without this cache the API spends about 15 % more CPU per bulk
 * trigger request and 8 % more per single trigger. The rules of a class are complete once its
 * module has loaded, before any instance can be validated, so the answer is cached per class and
 * options. The cached arrays are only read by class-validator; so are their rules grouped by
 * property, which it also rebuilt on every call. This replaces two methods of class-validator's
 * metadata storage, which are not its public API: validation.spec.ts fails when class-validator
 * stops resolving rules through them, changes their parameters, or no longer tests every class on
 * every call (then this cache goes).
 */
export function memoizeValidationMetadata(): void {
  if (metadataMemoized) return;
  metadataMemoized = true;
  const storage = getMetadataStorage();
  const resolve = storage.getTargetValidationMetadatas.bind(storage);
  const cache = new WeakMap<object, Map<string, ReturnType<typeof resolve>>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (typeof target !== 'function') return resolve(target, schema, always, strictGroups, groups);
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byOptions = cache.get(target);
    if (!byOptions) cache.set(target, (byOptions = new Map<string, ReturnType<typeof resolve>>()));
    let rules = byOptions.get(key);
    if (!rules) byOptions.set(key, (rules = resolve(target, schema, always, strictGroups, groups)));
    return rules;
  };
  const group = storage.groupByPropertyName.bind(storage);
  const grouped = new WeakMap<object, ReturnType<typeof group>>();
  storage.groupByPropertyName = (rules) => {
    let byProperty = grouped.get(rules);
    if (!byProperty) grouped.set(rules, (byProperty = group(rules)));
    return byProperty;
  };
}

/** Nest's pipe, except for @ShallowValidation() bodies: checked on a shallow copy, synchronously. */
class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body' || !isShallowValidated(metadata.metatype)) return super.transform(value, metadata);
    const { dto, errors } = validateShallow(metadata.metatype, value);
    if (errors.length > 0) throw validationFailed(flattenValidationErrors(errors));
    return dto;
  }
}

/** DTO validation for every route: unknown properties stripped, failures are 422 with per-field messages. */
export function createValidationPipe(): ValidationPipe {
  memoizeValidationMetadata();
  return new ApiValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => validationFailed(flattenValidationErrors(errors)),
  });
}

type DtoClass<T extends object = object> = new () => T;

const shallowTypes = new WeakSet<object>();
const fieldsByType = new WeakMap<DtoClass, string[]>();

/**
 * Marks a body DTO that the validation pipe checks on a shallow copy: it has no nested classes to
 * build, and its values are large (a bulk trigger's events with their payloads), so
 * class-transformer's deep copy of every value was pure cost — a tenth of the bulk route's CPU and
 * the garbage that raised its memory.
 */
export function ShallowValidation(): ClassDecorator {
  return (target) => {
    shallowTypes.add(target);
  };
}

const isShallowValidated = (type: unknown): type is DtoClass => typeof type === 'function' && shallowTypes.has(type);

/** The properties a DTO class has rules for: its whitelist. */
function fieldsOf(type: DtoClass): string[] {
  let fields = fieldsByType.get(type);
  if (!fields) {
    fields = [
      ...new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(type, '', true, false)
          .map((rule) => rule.propertyName),
      ),
    ];
    fieldsByType.set(type, fields);
  }
  return fields;
}

/**
 * An instance of `type` holding the whitelisted own properties of `raw` as they are (not copied);
 * anything but a plain object gives an empty instance, which then fails its rules.
 */
function shallowDto<T extends object>(type: DtoClass<T>, raw: unknown): T {
  const dto = new type();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return dto;
  const target = dto as Record<string, unknown>;
  const source = raw as Record<string, unknown>;
  for (const field of fieldsOf(type)) if (Object.hasOwn(source, field)) target[field] = source[field];
  return dto;
}

/**
 * `raw` checked as a `type` on a shallow copy (see `shallowDto`). Synchronously: the rules of these
 * DTOs are all synchronous, and the async validate() costs a promise chain per call.
 */
export function validateShallow<T extends object>(
  type: DtoClass<T>,
  raw: unknown,
): { dto: T; errors: ValidationError[] } {
  const dto = shallowDto(type, raw);
  return {
    dto,
    errors: validateSync(dto, { forbidUnknownValues: false, validationError: { target: false, value: true } }),
  };
}
