import type { TranslationContent } from '#dal';

/** `{{ t.key }}` (nested keys with dots), with Liquid's optional whitespace control. */
const TRANSLATION_REFERENCE = /\{\{-?\s*t\.([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*-?\}\}/g;

/** How deep localize walks into a template object (the template engine's own bound). */
const MAX_DEPTH = 6;

/**
 * The value of a dotted key: `a.b.c` is found as written (`{"a.b.c": …}`), nested
 * (`{"a": {"b": {"c": …}}}`) or any mix of the two, as translators' tools write either.
 */
export function lookupKey(content: TranslationContent | undefined, key: string): string | undefined {
  if (!content) return undefined;
  const direct = Object.hasOwn(content, key) ? content[key] : undefined;
  if (typeof direct === 'string') return direct;
  const segments = key.split('.');
  for (let split = 1; split < segments.length; split++) {
    const head = segments.slice(0, split).join('.');
    const child = Object.hasOwn(content, head) ? content[head] : undefined;
    if (child !== undefined && typeof child === 'object') {
      const found = lookupKey(child, segments.slice(split).join('.'));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The locales a lookup tries, in order: the subscriber's, then the environment's default. */
export interface LocaleChoice {
  locales: Map<string, TranslationContent>;
  /** The subscriber's locale, when it is one in language_REGION form. */
  locale?: string;
  defaultLocale: string;
  /** False when the resource has translations turned off: no key is looked up. */
  enabled: boolean;
}

export interface Localized<T> {
  value: T;
  /** Keys found in neither locale: they render as their key, and the run reports them. */
  missing: string[];
  choice: LocaleChoice;
}

/**
 * Replaces every `{{t.key}}` in a template (every string of a template object) with the key's value
 * in the chosen locale, else in the default locale. The value is template source: its own variables
 * (`{{subscriber.firstName}}`) are rendered afterwards with the rest of the template, by the same
 * sandboxed engine under the same limits. Templates without a reference are returned as they are.
 */
export function localize<T>(template: T, choice: LocaleChoice): Localized<T> {
  const missing = new Set<string>();
  const primary = choice.locale ? choice.locales.get(choice.locale) : undefined;
  const fallback = choice.locales.get(choice.defaultLocale);
  const replace = (source: string) =>
    source.includes('t.')
      ? source.replace(TRANSLATION_REFERENCE, (_match, key: string) => {
          const value = lookupKey(primary, key) ?? lookupKey(fallback, key);
          if (value !== undefined) return value;
          missing.add(key);
          return key;
        })
      : source;
  // Every delivery walks its template: parts without a reference are returned as they are, not copied.
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return replace(value);
    if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const items = value.map((item) => walk(item, depth + 1));
      return items.every((item, index) => item === value[index]) ? value : items;
    }
    const entries = Object.entries(value);
    const walked = entries.map(([key, item]) => [key, walk(item, depth + 1)] as const);
    return walked.every(([, item], index) => item === entries[index][1]) ? value : Object.fromEntries(walked);
  };
  return { value: walk(template, 0) as T, missing: [...missing], choice };
}

/** The execution detail (or preview warning) that names keys found in no locale. */
export function missingKeysDetail({ missing, choice }: Localized<unknown>): string {
  if (!choice.enabled) return `Translations are off, so these keys rendered as their key: ${missing.join(', ')}`;
  const where = choice.locale && choice.locale !== choice.defaultLocale ? `${choice.locale} nor ` : '';
  return `Translation keys not found in ${where}the default locale ${choice.defaultLocale}, rendered as their key: ${missing.join(', ')}`;
}

/** What a preview answers about keys found in no locale. */
export interface MissingTranslations {
  keys: string[];
  /** The subscriber's locale that was tried first, when the preview gave one. */
  locale?: string;
  defaultLocale: string;
}

export function missingTranslations(...results: (Localized<unknown> | undefined)[]): MissingTranslations | undefined {
  const found = results.filter((result) => result !== undefined && result.missing.length > 0) as Localized<unknown>[];
  if (found.length === 0) return undefined;
  const { locale, defaultLocale } = found[0].choice;
  return {
    keys: [...new Set(found.flatMap((result) => result.missing))],
    ...(locale ? { locale } : {}),
    defaultLocale,
  };
}
