import { describe, expect, it } from '@jest/globals';
import { parseConfig } from '#common';
import { hasContentSlot } from './content-slot.js';
import { TemplateEngine, type TemplateVariables } from './template-engine.js';
import { TemplateLimitError } from './template-errors.js';

const engine = new TemplateEngine(parseConfig({}));
const variables: TemplateVariables = {
  subscriber: { firstName: '<b>Ann</b>' },
  payload: {},
  actor: null,
  tenant: null,
  step: {},
  env: { BRAND: 'Acme' },
};

describe('TemplateEngine.renderLayout', () => {
  it('puts the content in every slot as it is and escapes the layout’s own variables', async () => {
    const output = await engine.renderLayout(
      '<h1>{{ env.BRAND }} for {{ subscriber.firstName }}</h1>{{content}}<hr>{{ content }}',
      '<p>body</p>',
      variables,
    );
    expect(output).toBe('<h1>Acme for &lt;b&gt;Ann&lt;/b&gt;</h1><p>body</p><hr><p>body</p>');
  });

  it('never renders the content again: Liquid in a rendered payload value stays text', async () => {
    const output = await engine.renderLayout('[{{content}}]', '{{ env.BRAND }} {% if true %}x{% endif %}', variables);
    expect(output).toBe('[{{ env.BRAND }} {% if true %}x{% endif %}]');
  });

  it('counts the content in the output size limit', async () => {
    const small = new TemplateEngine(parseConfig({ TEMPLATE_OUTPUT_LIMIT_BYTES: '1000' }));
    await expect(small.renderLayout('{{content}}{{content}}', 'x'.repeat(600), variables)).rejects.toBeInstanceOf(
      TemplateLimitError,
    );
  });

  it.each([
    ['{{content}}', true],
    ['{{  content  }}', true],
    ['{{ content | upcase }}', false],
    ['{{ contents }}', false],
    ['content', false],
  ])('%s is a content slot: %s', (source, expected) => {
    expect(hasContentSlot(source)).toBe(expected);
  });
});
