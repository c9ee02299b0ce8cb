import type { StoredStep } from '#dal';
import { withoutUnsafeUrls } from '../messages/cta-urls.js';
import { emailBody, renderedText, renderStepTemplate } from '../templates/step-rendering.js';
import type { TemplateEngine, TemplateVariables } from '../templates/template-engine.js';
import { controlsFromStoredStep } from './stored-step-controls.js';

export interface StepPreview {
  type: string;
  preview: Record<string, unknown>;
}

/**
 * What one step would deliver for these variables, rendered by the delivery path's own functions
 * (renderStepTemplate, emailBody, the cta url check) and nothing sent: in-app and push as the
 * message a subscriber would see, email as its subject and HTML, sms and chat as their text, an
 * http_request as the request it would make, waits as their settings.
 */
export async function previewStep(
  engine: TemplateEngine,
  step: Pick<StoredStep, 'template' | 'metadata'>,
  variables: TemplateVariables,
): Promise<StepPreview> {
  const type = step.template.type;
  const rendered = await renderStepTemplate(engine, step.template, variables);
  switch (type) {
    case 'in_app': {
      const { cta } = withoutUnsafeUrls(rendered.cta);
      const controls = controlsFromStoredStep({ template: { ...rendered, cta } });
      return { type, preview: controls };
    }
    case 'email':
      return { type, preview: { subject: renderedText(rendered.subject), body: emailBody(rendered.content).html } };
    case 'sms':
    case 'chat':
      return { type, preview: { body: renderedText(rendered.content) } };
    case 'push':
      return { type, preview: { subject: renderedText(rendered.title), body: renderedText(rendered.content) } };
    case 'http_request':
      return { type, preview: await engine.render(step.metadata ?? {}, variables) };
    default:
      return { type, preview: controlsFromStoredStep({ template: step.template, metadata: step.metadata }) };
  }
}
