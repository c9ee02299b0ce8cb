import { compile } from 'html-to-text';
import type { TemplateEngine, TemplateVariables } from './template-engine.js';

/**
 * How a step's template becomes what its channel sends, shared by delivery (the step handlers) and
 * the preview of /v2/workflows, so a preview shows exactly what a subscriber would receive.
 */

/** Template fields that are HTML, per step type: their `{{ }}` outputs are escaped (`| raw` for trusted HTML). */
const HTML_FIELDS: Partial<Record<string, readonly string[]>> = { in_app: ['content'], email: ['content'] };

/** Renders every string of a step template with the step type's escaping. */
export function renderStepTemplate<T extends { type: string }>(
  engine: TemplateEngine,
  template: T,
  variables: TemplateVariables,
): Promise<T> {
  return engine.render(template, variables, { htmlFields: HTML_FIELDS[template.type] });
}

/** A rendered field as text: strings as they are, anything else as JSON, nothing as ''. */
export const renderedText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

const escapeHtml = (value: string) =>
  value.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

/**
 * The text part of an HTML email: a real HTML parser's reading (entities decoded, line breaks where
 * blocks end, links followed by their URL), unwrapped, headings as written, images left out.
 */
const htmlToText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

interface EmailBlock {
  type?: string;
  content?: string;
  url?: string;
  styles?: { textAlign?: unknown };
}

const TEXT_ALIGNMENTS = new Set(['center', 'left', 'right']);

/** A block's `styles.textAlign` as a style attribute; any other value is left out, never copied into the HTML. */
function alignment(block: EmailBlock): string {
  const align = block.styles?.textAlign;
  return typeof align === 'string' && TEXT_ALIGNMENTS.has(align) ? ` style="text-align:${align}"` : '';
}

/** Email content is a string (HTML) or the spec's EmailBlock[]; blocks are text, escaped when they become HTML. */
export function emailBody(content: unknown): { html: string; text: string } {
  if (!Array.isArray(content)) {
    const html = renderedText(content);
    return { html, text: htmlToText(html) };
  }
  const blocks = content as EmailBlock[];
  const html = blocks
    .map((block) =>
      block.type === 'button'
        ? `<p${alignment(block)}><a href="${escapeHtml(block.url ?? '#')}">${escapeHtml(renderedText(block.content))}</a></p>`
        : `<p${alignment(block)}>${escapeHtml(renderedText(block.content))}</p>`,
    )
    .join('\n');
  return { html, text: blocks.map((block) => renderedText(block.content)).join('\n') };
}
