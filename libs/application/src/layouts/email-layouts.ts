import { Injectable } from '@nestjs/common';
import type { LayoutRow } from '#dal';
import { TemplateEngine, type TemplateVariables } from '../templates/template-engine.js';
import { LayoutCache } from './layout-cache.js';

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
  ): Promise<string> {
    const layout = await this.resolve(environmentId, step);
    return layout ? this.render(layout, bodyHtml, variables) : bodyHtml;
  }

  /** The body in this layout (unchanged when the layout has no email body). */
  render(layout: LayoutRow, bodyHtml: string, variables: TemplateVariables): Promise<string> {
    const source = layoutBody(layout.controlValues);
    return source === undefined ? Promise.resolve(bodyHtml) : this.templates.renderLayout(source, bodyHtml, variables);
  }
}
