import { DomainError } from '#common';

/** Deeper bodies are refused before validation: class-transformer recurses and would overflow. */
const MAX_BODY_DEPTH = 64;
const NUL = '\u0000';

/**
 * Checks a parsed request body (iteratively, so hostile nesting cannot overflow the stack): nesting
 * depth, and text PostgreSQL refuses in text and jsonb. Both are 422s here instead of failures
 * deeper down.
 */
export function assertAcceptableBody(body: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value === 'string') {
      assertStorableText(value);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH)
      throw DomainError.validation('body', `The body must not be nested deeper than ${MAX_BODY_DEPTH} levels`);
    for (const [key, child] of Object.entries(value)) {
      assertStorableText(key);
      stack.push({ value: child, depth: depth + 1 });
    }
  }
}

/** PostgreSQL stores neither NUL nor lone UTF-16 surrogates (e.g. "\\udfff" in JSON). */
function assertStorableText(text: string): void {
  if (text.includes(NUL)) throw DomainError.validation('body', 'Strings must not contain NUL characters');
  if (!text.isWellFormed())
    throw DomainError.validation('body', 'Strings must be well-formed Unicode (no lone surrogates)');
}

/** A NUL anywhere in the path or query string (raw or percent-encoded) is refused. */
export function assertAcceptableUrl(url: string): void {
  if (url.includes(NUL) || /%00/i.test(url))
    throw DomainError.validation('url', 'The URL must not contain NUL characters');
}
