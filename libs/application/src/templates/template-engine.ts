import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Liquid, Tag, toValue, type Context, type Emitter, type Template } from 'liquidjs';
import { AppConfig, type TemplateLimits } from '#common';
import { TemplateLimitError, TemplateRenderError } from './template-errors.js';
import { MAX_TEMPLATE_NESTING, nestingError } from './template-nesting.js';
import { CONTENT_SLOT } from './content-slot.js';

/** What a step template can reference. */
export interface TemplateVariables {
  subscriber: Record<string, unknown>;
  payload: Record<string, unknown>;
  actor: Record<string, unknown> | null;
  tenant: Record<string, unknown> | null;
  step: Record<string, unknown>;
  /** What earlier steps of the run left, by step name and by step id: `steps.<name>.response` of an http_request. */
  steps?: Record<string, unknown>;
  /** The trigger's context entries by type: `context.<type>.id`, `context.<type>.data`. */
  context?: Record<string, unknown>;
  /** The organization's environment variables with the values of the environment the step runs in: `env.<KEY>`. */
  env?: Record<string, string>;
}

/** Tags that would load another template: there is no store of partials or layouts, and never the file system. */
const FILE_TAGS = ['include', 'render', 'layout'];

/** How deep renderTemplate walks into a template object (cta.data.url is three levels down). */
const MAX_DEPTH = 6;

/** Parsed templates kept per engine; a fan-out renders one step template for every recipient. */
const MAX_PARSED = 1_000;

/**
 * Synchronous renders run back to back on the event loop; after this much busy time the next render
 * waits for one turn of the loop, so I/O (health checks, heartbeats, other jobs) is served in between.
 */
const YIELD_AFTER_MS = 20;

class ForbiddenTag extends Tag {
  constructor(...args: ConstructorParameters<typeof Tag>) {
    super(...args);
    throw new Error(`{% ${this.name} %} is not available: templates cannot load files or other templates`);
  }

  *render(): Generator<unknown, void> {}
}

/** Output text of a value, as LiquidJS's own emitter writes it (its `stringify` is not exported). */
function stringify(value: unknown): string {
  const plain = toValue(value) as unknown;
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map(stringify).join('');
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- Liquid renders any other value with String()
  return String(plain);
}

/** Liquid's emitter, with everything written charged to the render's memory limit. */
class ChargedEmitter implements Emitter {
  buffer = '';

  constructor(private readonly context: Context) {}

  write(html: unknown): void {
    const text = stringify(html);
    this.context.memoryLimit.use(text.length);
    this.buffer += text;
  }
}

/** One configured Liquid instance with its parse cache. */
class SandboxedLiquid {
  private readonly liquid: Liquid;
  private readonly parsed = new Map<string, Template[]>();

  constructor(limits: TemplateLimits, escapeOutput: boolean) {
    // Lax about unknown variables (they render empty, as in Novu); strict about syntax and filters.
    this.liquid = new Liquid({
      strictVariables: false,
      strictFilters: true,
      ownPropertyOnly: true,
      jsTruthy: true,
      // An in-memory file system with no files: nothing a template names can reach the disk.
      templates: {},
      parseLimit: limits.sourceChars,
      renderLimit: limits.renderTimeMs,
      memoryLimit: limits.memory,
      outputEscape: escapeOutput ? 'escape' : undefined,
    });
    for (const name of FILE_TAGS) this.liquid.registerTag(name, ForbiddenTag);
    this.boundFilters();
    this.chargedOutput();
  }

  parse(source: string): Template[] {
    let template = this.parsed.get(source);
    if (!template) {
      const tooDeep = nestingError(source);
      if (tooDeep) throw new Error(tooDeep);
      template = this.liquid.parse(source);
      // Parsed templates are immutable; the oldest entry goes first.
      if (this.parsed.size >= MAX_PARSED) this.parsed.delete(this.parsed.keys().next().value!);
      this.parsed.set(source, template);
    }
    return template;
  }

  render(source: string, variables: TemplateVariables): string {
    return this.liquid.renderSync(this.parse(source), variables) as string;
  }

  /**
   * Liquid checks its render time only between template nodes; one output tag can chain many
   * filters over a large payload array, so every filter call checks it too.
   */
  private boundFilters(): void {
    const filters = this.liquid.filters;
    for (const [name, implementation] of Object.entries(filters)) {
      const handler = typeof implementation === 'function' ? implementation : implementation.handler;
      const bounded = function (this: { context: Context }, ...args: unknown[]) {
        this.context.renderLimit.check(performance.now());
        return (handler as (...values: unknown[]) => unknown).apply(this, args);
      };
      filters[name] = typeof implementation === 'function' ? bounded : { ...implementation, handler: bounded };
    }
  }

  /**
   * Liquid's memory limit counts what filters and ranges allocate, not what a template writes: a loop
   * printing a large payload value would build an unbounded string before any check. Every render
   * (the template's and the nested ones of capture, if, for...) writes through a ChargedEmitter.
   */
  private chargedOutput(): void {
    const renderer = this.liquid.renderer;
    const renderTemplates = renderer.renderTemplates.bind(renderer);
    renderer.renderTemplates = (templates: Template[], context: Context, emitter?: Emitter) =>
      renderTemplates(templates, context, emitter ?? new ChargedEmitter(context));
  }
}

/** How a template object is rendered: which of its top-level string fields are HTML. */
export interface RenderOptions {
  /** Their `{{ }}` outputs are HTML-escaped unless the last filter is `raw`. */
  htmlFields?: readonly string[];
}

/**
 * The only Liquid engine of the service: sandboxed (no file system, no partials or layouts, own
 * properties only) and bounded (source length, render time, memory, output size), so a template is
 * hostile input like any other. Templates are checked when a workflow is saved and rendered when a
 * step runs; a template that breaks a limit fails its step with a TemplateLimitError.
 */
@Injectable()
export class TemplateEngine {
  private readonly limits: TemplateLimits;
  private readonly text: SandboxedLiquid;
  private readonly html: SandboxedLiquid;
  private lastYield = performance.now();

  constructor(config: AppConfig) {
    this.limits = config.templateLimits;
    this.text = new SandboxedLiquid(this.limits, false);
    this.html = new SandboxedLiquid(this.limits, true);
  }

  /** Liquid's message for a template that does not parse (syntax, unknown filter, forbidden tag), or undefined. */
  check(source: string): string | undefined {
    if (!source.includes('{')) return undefined;
    try {
      this.text.parse(source);
      return undefined;
    } catch (error) {
      return describe(error);
    }
  }

  /** `{ 'steps[0].template.content': message }` for every string of a template object that does not parse. */
  errorsOf(value: unknown, path: string, depth = 0): Record<string, string> {
    if (typeof value === 'string') {
      const error = this.check(value);
      return error ? { [path]: error } : {};
    }
    if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return {};
    const entries = Array.isArray(value)
      ? value.map((item, index) => [`${path}[${index}]`, item] as const)
      : Object.entries(value).map(([key, item]) => [`${path}.${key}`, item] as const);
    return Object.assign({}, ...entries.map(([itemPath, item]) => this.errorsOf(item, itemPath, depth + 1))) as Record<
      string,
      string
    >;
  }

  /** Renders one template string; `html` escapes its outputs (see RenderOptions). */
  async renderString(source: string, variables: TemplateVariables, field = 'content', html = false): Promise<string> {
    if (!source.includes('{')) return source;
    await this.takeTurn();
    let output: string;
    try {
      output = (html ? this.html : this.text).render(source, variables);
    } catch (error) {
      throw toRenderError(field, error, this.limits);
    }
    if (output.length > this.limits.outputBytes / 3 && Buffer.byteLength(output) > this.limits.outputBytes) {
      throw new TemplateLimitError(field, `output size limit (${this.limits.outputBytes} bytes)`);
    }
    return output;
  }

  /** Renders every string inside a step template (content, subject, blocks, cta urls...), keeping its shape. */
  async render<T>(value: T, variables: TemplateVariables, options: RenderOptions = {}): Promise<T> {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return this.renderValue(value, variables, 'template', 0);
    const rendered: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const path = `template.${key}`;
      rendered[key] =
        typeof item === 'string' && options.htmlFields?.includes(key)
          ? await this.renderString(item, variables, path, true)
          : await this.renderValue(item, variables, path, 1);
    }
    return rendered as T;
  }

  /**
   * Renders an HTML layout around content that is already rendered: every `{{ content }}` slot takes
   * it as it is, neither escaped nor rendered again (a payload value in it stays text, never Liquid).
   */
  async renderLayout(source: string, content: string, variables: TemplateVariables, field = 'layout'): Promise<string> {
    const token = `layout-content-${randomBytes(12).toString('hex')}`;
    const frame = await this.renderString(source.replace(CONTENT_SLOT, token), variables, field, true);
    const output = frame.split(token).join(content);
    if (Buffer.byteLength(output) > this.limits.outputBytes) {
      throw new TemplateLimitError(field, `output size limit (${this.limits.outputBytes} bytes)`);
    }
    return output;
  }

  private async renderValue<T>(value: T, variables: TemplateVariables, path: string, depth: number): Promise<T> {
    if (typeof value === 'string') return (await this.renderString(value, variables, path)) as T;
    if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const [index, item] of value.entries())
        items.push(await this.renderValue(item, variables, `${path}[${index}]`, depth + 1));
      return items as T;
    }
    const rendered: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      rendered[key] = await this.renderValue(item, variables, `${path}.${key}`, depth + 1);
    return rendered as T;
  }

  private async takeTurn(): Promise<void> {
    if (performance.now() - this.lastYield < YIELD_AFTER_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
  }
}

const LIMIT_NAMES: [RegExp, (limits: TemplateLimits) => string][] = [
  [/template render limit exceeded/, (limits) => `render time limit (${limits.renderTimeMs} ms)`],
  [/memory alloc limit exceeded/, (limits) => `memory limit (${limits.memory})`],
  [/nesting depth limit exceeded/, () => `nesting depth limit (${MAX_TEMPLATE_NESTING} levels)`],
  [/parse length limit exceeded/, (limits) => `source length limit (${limits.sourceChars} characters)`],
  [/Invalid string length|Maximum call stack size exceeded|Invalid array length/, () => 'engine size limit'],
];

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function toRenderError(field: string, error: unknown, limits: TemplateLimits): TemplateRenderError {
  const message = describe(error);
  const limit = LIMIT_NAMES.find(([pattern]) => pattern.test(message));
  return limit ? new TemplateLimitError(field, limit[1](limits)) : new TemplateRenderError(field, error);
}
