import { Injectable } from '@nestjs/common';
import { EnvironmentRepository, TranslationRepository, type TranslationContent, type TranslationResource } from '#dal';
import { ExpiringLoads } from '../cache/expiring-loads.js';
import { DEFAULT_LOCALE, subscriberLocale } from './translation-rules.js';
import { localize, type LocaleChoice, type Localized } from './localize.js';

const TTL_MS = 5_000;
const MAX_ENVIRONMENTS = 1_000;
const NO_LOCALES = new Map<string, TranslationContent>();

/** An environment's translations by resource, then by locale, and its default locale. */
export class EnvironmentTranslations {
  constructor(
    readonly defaultLocale: string,
    private readonly byResource: Map<string, Map<string, TranslationContent>>,
  ) {}

  /**
   * The locales `{{t.key}}` is looked up in for a subscriber: theirs, then the default. A resource
   * with translations turned off has none, so every key it references is reported missing.
   */
  choiceFor(resource: TranslationResource, enabled: boolean, locale: unknown): LocaleChoice {
    const locales = enabled ? (this.byResource.get(resourceKey(resource)) ?? NO_LOCALES) : NO_LOCALES;
    return { locales, locale: subscriberLocale(locale), defaultLocale: this.defaultLocale, enabled };
  }

  /** The template with its `{{t.key}}` references replaced for this subscriber's locale (see localize). */
  localize<T>(template: T, resource: TranslationResource, enabled: boolean, locale: unknown): Localized<T> {
    return localize(template, this.choiceFor(resource, enabled, locale));
  }
}

const resourceKey = (resource: TranslationResource) => `${resource.resourceType}:${resource.resourceId}`;

/**
 * Every channel step renders with its environment's translations; they change rarely, so each
 * process keeps them per environment for a few seconds: one query per environment every TTL_MS at
 * most, none per delivery. The translation, workflow, layout and environment routes invalidate on
 * every write, so this process sees a change at once and others within TTL_MS. Provided only by
 * TranslationsCacheModule: a second instance would miss the invalidations.
 */
@Injectable()
export class TranslationCache {
  private readonly entries = new ExpiringLoads(TTL_MS, MAX_ENVIRONMENTS, (environmentId) => this.load(environmentId));

  constructor(
    private readonly translations: TranslationRepository,
    private readonly environments: EnvironmentRepository,
  ) {}

  of(environmentId: string): Promise<EnvironmentTranslations> {
    return this.entries.get(environmentId);
  }

  invalidate(environmentId: string): void {
    this.entries.invalidate(environmentId);
  }

  private async load(environmentId: string): Promise<EnvironmentTranslations> {
    const [rows, environment] = await Promise.all([
      this.translations.listAll(environmentId),
      this.environments.findEnvironmentById(environmentId),
    ]);
    const byResource = new Map<string, Map<string, TranslationContent>>();
    for (const row of rows) {
      const key = resourceKey(row);
      const locales = byResource.get(key) ?? new Map<string, TranslationContent>();
      locales.set(row.locale, row.content);
      byResource.set(key, locales);
    }
    return new EnvironmentTranslations(environment?.defaultLocale ?? DEFAULT_LOCALE, byResource);
  }
}
