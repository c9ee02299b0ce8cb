import { Injectable } from '@nestjs/common';
import { compile } from 'html-to-text';
import { EmailLayouts } from '#application';
import { isEmailAddress } from '#common';
import { templateVariables, type StepContext } from '../step-context.js';
import type { StepOutcome } from '../step-outcome.js';
import { text, type Rendered } from './channel-message.js';
import { ChannelPreparation } from './channel-preparation.js';
import { DirectDelivery, type DirectChannel } from './direct-delivery.js';
import type { StepHandler } from './step-handler.js';

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
    const html = text(content);
    return { html, text: htmlToText(html) };
  }
  const blocks = content as EmailBlock[];
  const html = blocks
    .map((block) =>
      block.type === 'button'
        ? `<p${alignment(block)}><a href="${escapeHtml(block.url ?? '#')}">${escapeHtml(text(block.content))}</a></p>`
        : `<p${alignment(block)}>${escapeHtml(text(block.content))}</p>`,
    )
    .join('\n');
  return { html, text: blocks.map((block) => text(block.content)).join('\n') };
}

const EMAIL: DirectChannel = {
  address: (subscriber) => subscriber?.email,
  missing: 'an email address',
  addressField: (email) => ({ email }),
  // The API refuses such addresses; one written another way (older data, SQL) must still reach no other mailbox.
  refusal: (address) =>
    isEmailAddress(address)
      ? undefined
      : 'The subscriber email address is not one valid address (a list, a line break or a display name): not sent',
  providerMessage: (to, rendered: Rendered) => ({
    channel: 'email',
    to,
    subject: text(rendered.subject),
    ...emailBody(rendered.content),
  }),
  content: (rendered) => (Array.isArray(rendered.content) ? (rendered.content as unknown[]) : text(rendered.content)),
};

@Injectable()
export class EmailStep implements StepHandler {
  readonly type = 'email';
  readonly claims = true;

  constructor(
    private readonly preparation: ChannelPreparation,
    private readonly delivery: DirectDelivery,
    private readonly layouts: EmailLayouts,
  ) {}

  async start(context: StepContext): Promise<StepOutcome> {
    // The HTML content's variables are escaped; blocks are escaped when they become HTML.
    const prepared = await this.preparation.prepare(context, ['content']);
    if ('done' in prepared) return prepared.done;
    const { job } = context;
    const layout = await this.layouts.resolve(job.environmentId, job.step);
    // In a layout, the message keeps the whole HTML the subscriber received, as Novu stores it.
    const rendered = layout
      ? {
          ...prepared.rendered,
          content: await this.layouts.render(
            layout,
            emailBody(prepared.rendered.content).html,
            templateVariables(context),
          ),
        }
      : prepared.rendered;
    return this.delivery.deliver(context, rendered, EMAIL);
  }

  resume(context: StepContext): Promise<StepOutcome> {
    return this.start(context);
  }
}
