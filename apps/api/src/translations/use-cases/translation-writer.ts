import { Injectable } from '@nestjs/common';
import { asContent, contentError, TemplateEngine, TRANSLATION_LIMITS, TranslationCache } from '#application';
import { DomainError } from '#common';
import {
  LayoutRepository,
  TranslationRepository,
  WorkflowRepository,
  type TranslationResource,
  type TranslationRow,
  type TranslationValues,
} from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';

/** A workflow or layout of the caller's environment, under the key its translations are stored by. */
export interface FoundResource extends TranslationResource {
  name: string;
}

/** One locale's content to store, with where it came from for error messages (`content`, `files[1]`...). */
export interface TranslationInput extends TranslationResource {
  locale: string;
  content: unknown;
  field: string;
}

/**
 * Finds translated resources and writes translations: the one place content is checked, bounds are
 * enforced and the render cache is invalidated, whatever the route (create, upload, master import).
 */
@Injectable()
export class TranslationWriter {
  constructor(
    private readonly translations: TranslationRepository,
    private readonly workflows: WorkflowRepository,
    private readonly layouts: LayoutRepository,
    private readonly cache: TranslationCache,
    private readonly templates: TemplateEngine,
  ) {}

  /** The resource by workflowId / layoutId or internal id; 404 when the environment has none (another's included). */
  async resource(auth: AuthContext, resourceType: 'workflow' | 'layout', key: string): Promise<FoundResource> {
    const found = await this.find(auth.environmentId, resourceType, key);
    if (!found)
      throw new DomainError('NOT_FOUND', `${resourceType === 'workflow' ? 'Workflow' : 'Layout'} ${key} not found`);
    return found;
  }

  async find(
    environmentId: string,
    resourceType: 'workflow' | 'layout',
    key: string,
  ): Promise<FoundResource | undefined> {
    if (resourceType === 'workflow') {
      const row = await this.workflows.findByIdOrIdentifier(environmentId, key);
      return row && { resourceType, resourceId: row.identifier, name: row.name };
    }
    const row = await this.layouts.findByKey(environmentId, key);
    return row && { resourceType, resourceId: row.layoutId, name: row.name };
  }

  /** Stores every input or none: any invalid content or a bound passed is a 422 naming it. */
  async write(auth: AuthContext, inputs: TranslationInput[]): Promise<TranslationRow[]> {
    const values: TranslationValues[] = inputs.map((input) => {
      const error = contentError(input.content);
      if (error) throw DomainError.validation(input.field, `${input.field} ${error}`);
      // Values are template source, checked as a step's templates are when saved.
      const templateErrors = Object.entries(this.templates.errorsOf(input.content, input.field));
      if (templateErrors.length > 0) throw DomainError.validation(templateErrors[0][0], templateErrors[0][1]);
      return { ...input, content: asContent(input.content) };
    });
    const written = await this.translations.upsertBounded(
      { environmentId: auth.environmentId, organizationId: auth.organizationId },
      values,
      TRANSLATION_LIMITS,
    );
    if ('exceeded' in written) {
      const message =
        written.exceeded === 'localesPerResource'
          ? `A workflow or layout holds at most ${TRANSLATION_LIMITS.localesPerResource} locales`
          : `An environment holds at most ${TRANSLATION_LIMITS.environmentBytes / 1024 / 1024} MB of translations`;
      throw DomainError.validation(inputs[0]?.field ?? 'content', message);
    }
    this.cache.invalidate(auth.environmentId);
    return written.rows;
  }

  async delete(auth: AuthContext, resource: TranslationResource, locale?: string): Promise<boolean> {
    const deleted =
      locale === undefined
        ? (await this.translations.deleteResource(auth.environmentId, resource)) > 0
        : await this.translations.delete(auth.environmentId, resource, locale);
    this.cache.invalidate(auth.environmentId);
    return deleted;
  }
}
