import type { TranslationContent } from '#dal';

// What a tenant may store as translations. Every process keeps an environment's translations in
// memory (TranslationCache), so the bounds below bound that memory as well as each request.

/** `language_REGION`: a lowercase ISO 639 language, an underscore, an uppercase ISO 3166 region. */
const LOCALE = /^[a-z]{2,3}_[A-Z]{2}$/;

/** A key is usable in `{{t.key}}`: letters, digits, `_` and `-`, in segments joined by dots. */
const KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export const DEFAULT_LOCALE = 'en_US';
export const TRANSLATION_LIMITS = {
  /** UTF-8 bytes of one translated value. */
  valueBytes: 64 * 1024,
  /** UTF-8 bytes of one locale's content as JSON, and of one uploaded file. */
  contentBytes: 1024 * 1024,
  /** Strings in one locale's content. */
  keys: 2_000,
  /** Objects inside objects in one locale's content. */
  depth: 5,
  keyChars: 256,
  /** Locales of one workflow or layout. */
  localesPerResource: 50,
  /** UTF-8 bytes of all the translations of an environment (what each process may cache of it). */
  environmentBytes: 8 * 1024 * 1024,
} as const;

export function isLocale(value: unknown): value is string {
  return typeof value === 'string' && LOCALE.test(value);
}

export const LOCALE_MESSAGE = 'must be a locale in language_REGION form, such as en_US or de_DE';

/** A subscriber's locale as a translation locale: `de-DE` and `de_DE` both name de_DE. */
export function subscriberLocale(locale: unknown): string | undefined {
  if (typeof locale !== 'string') return undefined;
  const normalized = locale.trim().replace('-', '_');
  return isLocale(normalized) ? normalized : undefined;
}

/**
 * Why `content` cannot be stored as one locale's translations, or undefined when it can: an object
 * whose values are strings or objects of the same kind, within the limits above.
 */
export function contentError(content: unknown): string | undefined {
  if (!isPlainObject(content)) return 'must be an object of strings (or nested objects of strings)';
  let keys = 0;
  const stack: { value: Record<string, unknown>; path: string; depth: number }[] = [
    { value: content, path: '', depth: 1 },
  ];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (depth > TRANSLATION_LIMITS.depth) return `must not nest objects deeper than ${TRANSLATION_LIMITS.depth} levels`;
    for (const [key, item] of Object.entries(value)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (key.length > TRANSLATION_LIMITS.keyChars || !KEY.test(key))
        return `key "${itemPath.slice(0, 300)}" must be letters, digits, _ or - (segments joined by dots), at most ${TRANSLATION_LIMITS.keyChars} characters`;
      if (typeof item === 'string') {
        if (++keys > TRANSLATION_LIMITS.keys) return `must hold at most ${TRANSLATION_LIMITS.keys} keys`;
        if (Buffer.byteLength(item) > TRANSLATION_LIMITS.valueBytes)
          return `value of "${itemPath}" is over ${TRANSLATION_LIMITS.valueBytes / 1024} KB`;
      } else if (isPlainObject(item)) stack.push({ value: item, path: itemPath, depth: depth + 1 });
      else return `value of "${itemPath}" must be a string or an object of strings`;
    }
  }
  if (Buffer.byteLength(JSON.stringify(content)) > TRANSLATION_LIMITS.contentBytes)
    return `must be at most ${TRANSLATION_LIMITS.contentBytes / 1024} KB as JSON`;
  return undefined;
}

/** Content that contentError accepted. */
export const asContent = (content: unknown) => content as TranslationContent;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
