import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';

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

export const isShallowValidated = (type: unknown): type is DtoClass =>
  typeof type === 'function' && shallowTypes.has(type);

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
