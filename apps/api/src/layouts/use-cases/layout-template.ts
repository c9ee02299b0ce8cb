import { DomainError, type FieldErrors } from '#common';
import { hasContentSlot, type TemplateEngine } from '#application';

/** The layout a new one starts from: the body alone. */
export const STARTING_CONTROL_VALUES = {
  email: {
    body: '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"></head>\n<body>\n{{content}}\n</body>\n</html>',
    editorType: 'html',
  },
};

/**
 * Refuses layout control values whose body has no `{{content}}` slot or does not parse with the
 * engine that renders step templates (same syntax, filters, forbidden tags and source limit).
 */
export function checkLayoutControls(
  templates: TemplateEngine,
  controlValues: { email?: { body: string } },
  path = 'controlValues',
): void {
  const body = controlValues.email?.body;
  if (body === undefined) return;
  const field = `${path}.email.body`;
  const errors: FieldErrors = {};
  const syntax = templates.check(body);
  if (syntax) errors[field] = { messages: [syntax] };
  else if (!hasContentSlot(body))
    errors[field] = { messages: ['The layout body must contain a {{content}} slot for the email body'] };
  if (Object.keys(errors).length > 0) {
    throw new DomainError('VALIDATION_FAILED', errors[field].messages[0], errors);
  }
}
