import { Injectable } from '@nestjs/common';
import {
  controlPath,
  EmailLayouts,
  EnvironmentVariableCache,
  missingTranslations,
  previewStep,
  TranslationCache,
  TemplateEngine,
  TemplateRenderError,
  type MissingTranslations,
  type LayoutRendering,
  type StepPreview,
  type TemplateVariables,
} from '#application';
import { DomainError } from '#common';
import type { AuthContext } from '../../../auth/auth-context.js';
import type { GeneratePreviewV2Dto } from '../dto/workflow-v2-preview.dto.js';
import { WorkflowsV2Service } from '../workflows-v2.service.js';
import { WorkflowV2Input } from './workflow-v2-input.js';

/** What the templates can use, as a JSON Schema (the `schema` of a preview). */
const VARIABLES_SCHEMA = {
  type: 'object',
  properties: {
    subscriber: { type: 'object', additionalProperties: true },
    payload: { type: 'object', additionalProperties: true },
    steps: { type: 'object', additionalProperties: true },
    context: { type: 'object', additionalProperties: true },
    env: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

export interface PreviewAnswer {
  result: StepPreview;
  previewPayloadExample: Record<string, unknown>;
  schema: Record<string, unknown>;
  missingTranslations?: MissingTranslations;
}

/**
 * Renders one step for a payload and subscriber through the delivery path's rendering
 * (previewStep, and an email's layout through EmailLayouts) and sends nothing: no job, no message
 * row, no provider call. Controls sent with the request are previewed instead of the stored ones,
 * after the checks a save would make. Secret environment variables show masked. `{{t.key}}` resolves
 * in the locale of `previewPayload.subscriber.locale`, as for a subscriber of that locale.
 */
@Injectable()
export class PreviewStepUseCase {
  constructor(
    private readonly workflowsV2: WorkflowsV2Service,
    private readonly input: WorkflowV2Input,
    private readonly templates: TemplateEngine,
    private readonly layouts: EmailLayouts,
    private readonly environmentVariables: EnvironmentVariableCache,
    private readonly translations: TranslationCache,
  ) {}

  async execute(auth: AuthContext, key: string, stepKey: string, body: GeneratePreviewV2Dto): Promise<PreviewAnswer> {
    const row = await this.workflowsV2.find(auth.environmentId, key);
    const stored = this.workflowsV2.findStep(row, stepKey);
    const step = body.controlValues ? this.input.stepFromControls(stored.template.type, body.controlValues) : stored;
    const given = body.previewPayload ?? {};
    const example = {
      subscriber: given.subscriber ?? {},
      payload: given.payload ?? {},
      steps: given.steps ?? {},
      context: given.context ?? {},
    };
    const variables: TemplateVariables = {
      ...example,
      actor: given.actor ?? null,
      tenant: null,
      step: {},
      env: (await this.environmentVariables.of(auth.organizationId, auth.environmentId)).masked,
    };
    const localized = (await this.translations.of(auth.environmentId)).localize(
      step.template,
      { resourceType: 'workflow', resourceId: row.identifier },
      row.isTranslationEnabled,
      example.subscriber.locale,
    );
    try {
      const result = await previewStep(this.templates, { ...step, template: localized.value }, variables);
      let layout: LayoutRendering | undefined;
      if (result.type === 'email' && typeof result.preview.body === 'string') {
        layout = await this.layouts.wrap(auth.environmentId, step, result.preview.body, variables);
        result.preview.body = layout.html;
      }
      const missing = missingTranslations(localized, layout?.untranslated);
      return {
        result,
        previewPayloadExample: example,
        schema: VARIABLES_SCHEMA,
        ...(missing ? { missingTranslations: missing } : {}),
      };
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      const field = `controlValues.${controlPath(error.field)}`;
      throw DomainError.validation(field, `${field}: ${error.message}`);
    }
  }
}
