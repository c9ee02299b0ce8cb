/** A template field that could not be rendered (syntax, unknown filter, forbidden tag, bad value). */
export class TemplateRenderError extends Error {
  constructor(
    readonly field: string,
    cause: unknown,
    message = `Template of ${field} could not be rendered: ${cause instanceof Error ? cause.message : String(cause)}`,
  ) {
    super(message);
    this.name = 'TemplateRenderError';
  }
}

/** A template field whose render broke one of the engine's limits (`render time limit (250 ms)`). */
export class TemplateLimitError extends TemplateRenderError {
  constructor(
    field: string,
    readonly limit: string,
  ) {
    super(field, undefined, `Template of ${field} exceeded the ${limit}`);
    this.name = 'TemplateLimitError';
  }
}
