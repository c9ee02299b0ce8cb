import { Liquid } from 'liquidjs';

/** What a step template can reference. */
export interface TemplateVariables {
  subscriber: Record<string, unknown>;
  payload: Record<string, unknown>;
  actor: Record<string, unknown> | null;
  tenant: Record<string, unknown> | null;
  step: Record<string, unknown>;
}

export class TemplateRenderError extends Error {
  constructor(
    readonly field: string,
    cause: unknown,
  ) {
    super(`Template of ${field} could not be rendered: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'TemplateRenderError';
  }
}

// Lax about unknown variables (they render empty, as in Novu); strict about syntax, which is a real error.
const engine = new Liquid({ strictVariables: false, strictFilters: true, ownPropertyOnly: true, jsTruthy: true });

const MAX_DEPTH = 6;

/**
 * Parsed templates by source: a fan-out renders one step template for every recipient, and parsing
 * it each time (with Liquid's async, generator-driven rendering) was the largest CPU and allocation
 * cost of a busy worker. Parsed templates are immutable; the oldest entry goes first.
 */
const parsed = new Map<string, ReturnType<Liquid['parse']>>();
const MAX_PARSED = 1_000;

function parseCached(source: string): ReturnType<Liquid['parse']> {
  let template = parsed.get(source);
  if (!template) {
    template = engine.parse(source);
    if (parsed.size >= MAX_PARSED) parsed.delete(parsed.keys().next().value!);
    parsed.set(source, template);
  }
  return template;
}

/** Our templates use no async tag or filter, so they render synchronously (no promise per node). */
export async function renderString(source: string, variables: TemplateVariables, field = 'content'): Promise<string> {
  if (!source.includes('{')) return source;
  try {
    return engine.renderSync(parseCached(source), variables as unknown as Record<string, unknown>);
  } catch (error) {
    throw new TemplateRenderError(field, error);
  }
}

/** Renders every string inside a step template (content, subject, blocks, cta urls...), keeping its shape. */
export async function renderTemplate<T>(value: T, variables: TemplateVariables, path = 'template', depth = 0): Promise<T> {
  if (typeof value === 'string') return (await renderString(value, variables, path)) as T;
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    return (await Promise.all(value.map((item, index) => renderTemplate(item, variables, `${path}[${index}]`, depth + 1)))) as T;
  }
  const entries = await Promise.all(
    Object.entries(value as Record<string, unknown>).map(async ([key, item]) => [key, await renderTemplate(item, variables, `${path}.${key}`, depth + 1)] as const),
  );
  return Object.fromEntries(entries) as T;
}
