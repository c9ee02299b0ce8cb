import { v7 as uuidv7 } from 'uuid';

/** Every id the service generates is a UUIDv7: time ordered, so inserts stay index friendly. */
export function newId(): string {
  return uuidv7();
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isId(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
