import { createValidationPipe } from '#api/http/validation.js';

const pipe = createValidationPipe();

/**
 * A body or query as the api's validation pipe hands it to a route: the DTO instance, or the
 * VALIDATION_FAILED DomainError (a 422 over HTTP) with its per-field messages.
 */
export async function validated<T>(metatype: new () => T, value: unknown, type: 'body' | 'query' = 'body'): Promise<T> {
  return (await pipe.transform(value, { type, metatype })) as T;
}
