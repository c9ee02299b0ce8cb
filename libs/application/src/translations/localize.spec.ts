import { describe, expect, it } from '@jest/globals';
import type { TranslationContent } from '#dal';
import { localize, lookupKey, missingKeysDetail, type LocaleChoice } from './localize.js';
import { contentError, subscriberLocale, TRANSLATION_LIMITS } from './translation-rules.js';

const choice = (locale: string | undefined, locales: Record<string, TranslationContent>): LocaleChoice => ({
  locales: new Map(Object.entries(locales)),
  locale,
  defaultLocale: 'en_US',
  enabled: true,
});

describe('lookupKey', () => {
  it('finds dotted keys nested, flat, or mixed', () => {
    expect(lookupKey({ a: { b: { c: 'nested' } } }, 'a.b.c')).toBe('nested');
    expect(lookupKey({ 'a.b.c': 'flat' }, 'a.b.c')).toBe('flat');
    expect(lookupKey({ a: { 'b.c': 'mixed' } }, 'a.b.c')).toBe('mixed');
    expect(lookupKey({ a: { b: 'leaf' } }, 'a.b.c')).toBeUndefined();
    expect(lookupKey({ a: { b: {} } }, 'a.b')).toBeUndefined();
    expect(lookupKey({}, 'constructor')).toBeUndefined();
  });
});

describe('localize', () => {
  const locales = { de_DE: { hi: 'Hallo {{subscriber.firstName}}' }, en_US: { hi: 'Hello', bye: 'Bye' } };

  it('replaces every reference in every string, in the chosen locale then the default', () => {
    const template = { subject: '{{t.hi}}', content: ['{{- t.bye -}}', { label: '{{ t.hi }}!' }], type: 'email' };
    const result = localize(template, choice('de_DE', locales));
    expect(result.value).toEqual({
      subject: 'Hallo {{subscriber.firstName}}',
      content: ['Bye', { label: 'Hallo {{subscriber.firstName}}!' }],
      type: 'email',
    });
    expect(result.missing).toEqual([]);
    expect(localize(template, choice('fr_FR', locales)).value.subject).toBe('Hello');
    expect(localize(template, choice(undefined, locales)).value.subject).toBe('Hello');
  });

  it('returns a template without references as it is', () => {
    const template = { subject: 'Plain', content: ['{{ payload.t }}', { label: 'x' }] };
    expect(localize(template, choice('de_DE', locales)).value).toBe(template);
  });

  it('renders a key found in no locale as the key and names it once', () => {
    const result = localize({ a: '{{t.gone}} {{t.gone}}', b: '{{ payload.t }}' }, choice('de_DE', locales));
    expect(result.value).toEqual({ a: 'gone gone', b: '{{ payload.t }}' });
    expect(result.missing).toEqual(['gone']);
    expect(missingKeysDetail(result)).toBe(
      'Translation keys not found in de_DE nor the default locale en_US, rendered as their key: gone',
    );
  });

  it('looks nothing up for a resource with translations off', () => {
    const result = localize({ a: '{{t.hi}}' }, { ...choice('de_DE', locales), locales: new Map(), enabled: false });
    expect(result.value).toEqual({ a: 'hi' });
    expect(missingKeysDetail(result)).toContain('Translations are off');
  });
});

describe('translation rules', () => {
  it('reads subscriber locales in either separator, and nothing else', () => {
    expect(subscriberLocale('de-DE')).toBe('de_DE');
    expect(subscriberLocale('de_DE')).toBe('de_DE');
    expect(subscriberLocale('de')).toBeUndefined();
    expect(subscriberLocale(42)).toBeUndefined();
  });

  it('accepts objects of strings within the limits, and names what is wrong otherwise', () => {
    expect(contentError({ a: 'x', b: { c: 'y' }, 'd.e': 'z' })).toBeUndefined();
    expect(contentError([])).toContain('object');
    expect(contentError({ a: 1 })).toContain('"a"');
    expect(contentError({ 'a b': 'x' })).toContain('key');
    expect(contentError({ a: 'x'.repeat(TRANSLATION_LIMITS.valueBytes + 1) })).toContain('64 KB');
    expect(contentError({ a: { b: { c: { d: { e: { f: 'x' } } } } } })).toContain('deeper');
    const many = Object.fromEntries(Array.from({ length: TRANSLATION_LIMITS.keys + 1 }, (_, i) => [`k${i}`, 'v']));
    expect(contentError(many)).toContain(`${TRANSLATION_LIMITS.keys} keys`);
  });
});
