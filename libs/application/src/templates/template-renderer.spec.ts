import { describe, expect, it } from '@jest/globals';
import { renderTemplate, TemplateRenderError } from './template-renderer.js';

const variables = (firstName: string) => ({ subscriber: { firstName }, payload: { count: 2, items: ['a', 'b'] }, actor: null, tenant: null, step: {} });

describe('renderTemplate', () => {
  it('renders every string of a template, keeping its shape; a template parsed once renders for each set of variables', async () => {
    const template = { type: 'in_app', content: 'Hi {{subscriber.firstName}}, {{payload.count}} new', cta: { data: { url: '/x/{{payload.items | join: "-"}}' } } };
    expect(await renderTemplate(template, variables('Ann'))).toEqual({ type: 'in_app', content: 'Hi Ann, 2 new', cta: { data: { url: '/x/a-b' } } });
    expect(await renderTemplate(template, variables('Bo'))).toEqual({ type: 'in_app', content: 'Hi Bo, 2 new', cta: { data: { url: '/x/a-b' } } });
  });

  it('unknown variables render empty; a syntax error or an unknown filter is a TemplateRenderError naming the field, every time', async () => {
    expect(await renderTemplate({ content: '[{{nope.deeper}}]' }, variables('Ann'))).toEqual({ content: '[]' });
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(renderTemplate({ content: 'Hi {{ subscriber.firstName ' }, variables('Ann'))).rejects.toThrow(TemplateRenderError);
      await expect(renderTemplate({ subject: '{{ payload.count | no_such_filter }}' }, variables('Ann'))).rejects.toThrow(/template\.subject/);
    }
  });
});
