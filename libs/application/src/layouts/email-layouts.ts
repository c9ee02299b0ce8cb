import { Injectable } from '@nestjs/common';
import type { LayoutRow } from '#dal';
import { TemplateEngine, type TemplateVariables } from '../templates/template-engine.js';
import type { Localized } from '../translations/localize.js';
import { TranslationCache } from '../translations/translation-cache.js';
import { LayoutCache } from './layout-cache.js';

/** An email in its layout; `untranslated` names the layout's `{{t.key}}` found in no locale, when there are some. */
export interface LayoutRendering {
  html: string;
  untranslated?: Localized<string>;
}

/** The HTML of a layout's email controls, or undefined when it has none. */
export function layoutBody(controlValues: Record<string, unknown> | null | undefined): string | undefined {
  const email = controlValues?.email as { body?: unknown } | undefined;
  return typeof email?.body === 'string' ? email.body : undefined;
}

/**
 * Which layout an email step asks for: `layoutId` in its template (v1) or its control values (v2).
 * Absent: the environment's default; null: none; a string: that layout (by layoutId or internal id).
 */
export function layoutReference(step: { template?: unknown; controlValues?: unknown }): string | null | undefined {
  for (const holder of [step.template, step.controlValues]) {
    if (holder && typeof holder === 'object' && 'layoutId' in holder) {
      const value = (holder as { layoutId?: unknown }).layoutId;
      return typeof value === 'string' ? value : null;
    }
  }
  return undefined;
}

/**
 * The one place an email body is put in its layout: delivery and every preview call `wrap`, so an
 * email looks the same wherever it is rendered.
 */
@Injectable()
export class EmailLayouts {
  constructor(
    private readonly cache: LayoutCache,
    private readonly templates: TemplateEngine,
    private readonly translations: TranslationCache,
  ) {}

  /** The layout the step uses in this environment, if any (a named layout that no longer exists: none). */
  async resolve(
    environmentId: string,
    step: { template?: unknown; controlValues?: unknown },
  ): Promise<LayoutRow | undefined> {
    const reference = layoutReference(step);
    if (reference === null) return undefined;
    const layouts = await this.cache.of(environmentId);
    return reference === undefined ? layouts.default : layouts.byKey.get(reference);
  }

  /** The body in the step's layout; the body unchanged when the step uses none. */
  async wrap(
    environmentId: string,
    step: { template?: unknown; controlValues?: unknown },
    bodyHtml: string,
    variables: TemplateVariables,
  ): Promise<LayoutRendering> {
    const layout = await this.resolve(environmentId, step);
    return layout ? this.render(layout, bodyHtml, variables) : { html: bodyHtml };
  }

  /**
   * The body in this layout (unchanged when the layout has no email body), the layout's `{{t.key}}`
   * in the locale of `variables.subscriber`, from the layout's own translations.
   */
  async render(layout: LayoutRow, bodyHtml: string, variables: TemplateVariables): Promise<LayoutRendering> {
    const source = layoutBody(layout.controlValues);
    if (source === undefined) return { html: bodyHtml };
    const translations = await this.translations.of(layout.environmentId);
    const localized = translations.localize(
      source,
      { resourceType: 'layout', resourceId: layout.layoutId },
      layout.isTranslationEnabled,
      variables.subscriber.locale,
    );
    const html = await this.templates.renderLayout(localized.value, bodyHtml, variables);
    return localized.missing.length > 0 ? { html, untranslated: localized } : { html };
  }
}
