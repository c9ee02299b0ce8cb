import { Injectable } from '@nestjs/common';
import {
  EmailLayouts,
  EnvironmentVariableCache,
  missingTranslations,
  TemplateEngine,
  TemplateRenderError,
  type TemplateVariables,
} from '#application';
import { DomainError } from '#common';
import type { AuthContext } from '../../auth/auth-context.js';
import type { LayoutPreviewRequestDto } from '../dto/layout-input.dto.js';
import type { LayoutPreviewResponseDto } from '../dto/layout-response.dto.js';
import { checkLayoutControls } from './layout-template.js';
import { LayoutsService } from './layouts.service.js';

/** What the preview puts in the `{{content}}` slot. */
const SAMPLE_CONTENT = '<p>The email content will appear here.</p>';

const SAMPLE_SUBSCRIBER = {
  subscriberId: 'preview-subscriber',
  firstName: 'John',
  lastName: 'Doe',
  email: 'john.doe@example.com',
};

/** Subscriber fields a preview may set: strings only, so the example echoed back keeps the SDK's shape. */
const SUBSCRIBER_TEXT_FIELDS = [
  'subscriberId',
  'firstName',
  'lastName',
  'email',
  'phone',
  'avatar',
  'locale',
  'timezone',
];

function previewSubscriber(input: Record<string, unknown> | undefined): Record<string, unknown> {
  const subscriber: Record<string, unknown> = { ...SAMPLE_SUBSCRIBER };
  for (const field of SUBSCRIBER_TEXT_FIELDS) {
    const value = input?.[field];
    if (typeof value === 'string') subscriber[field] = value.slice(0, 1_000);
  }
  const data = input?.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) subscriber.data = data;
  return subscriber;
}

/**
 * Renders a layout around sample content through the same EmailLayouts.render that delivery uses.
 * Secret environment variables render masked: a preview is an API response.
 */
@Injectable()
export class LayoutPreviewUseCase {
  constructor(
    private readonly layouts: LayoutsService,
    private readonly emailLayouts: EmailLayouts,
    private readonly templates: TemplateEngine,
    private readonly variables: EnvironmentVariableCache,
  ) {}

  async execute(auth: AuthContext, layoutId: string, body: LayoutPreviewRequestDto): Promise<LayoutPreviewResponseDto> {
    const layout = await this.layouts.get(auth, layoutId);
    const override = body.controlValues?.email as { body?: unknown } | undefined;
    if (override !== undefined && (typeof override !== 'object' || typeof override?.body !== 'string'))
      throw DomainError.validation('controlValues.email.body', 'controlValues.email.body must be a string');
    const controlValues = override ? { email: { body: override.body as string, editorType: 'html' } } : undefined;
    if (controlValues) checkLayoutControls(this.templates, controlValues);
    const subscriber = previewSubscriber(body.previewPayload?.subscriber);
    const variables: TemplateVariables = {
      subscriber,
      payload: {},
      actor: null,
      tenant: null,
      step: {},
      env: (await this.variables.of(auth.organizationId, auth.environmentId)).masked,
    };
    const { html, untranslated } = await this.emailLayouts
      .render(controlValues ? { ...layout, controlValues } : layout, SAMPLE_CONTENT, variables)
      .catch((error: unknown) => {
        // A template that parses can still fail to render (a limit, a filter given a bad value): the caller's input.
        if (error instanceof TemplateRenderError)
          throw DomainError.validation('controlValues.email.body', error.message);
        throw error;
      });
    return {
      previewPayloadExample: { subscriber },
      schema: null,
      result: { type: 'email', preview: { body: html } },
      ...(untranslated ? { missingTranslations: missingTranslations(untranslated) } : {}),
    };
  }
}
