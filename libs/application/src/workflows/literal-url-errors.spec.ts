import { describe, expect, it } from '@jest/globals';
import { literalUrlErrors, UNSAFE_URL_MESSAGE } from './literal-url-errors.js';

const withRedirect = (url: string) => ({ cta: { data: { url } } });

describe('literalUrlErrors', () => {
  it.each([
    'javascript:alert(document.domain)',
    '\tJaVa\nScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'javascript:{{payload.code}}',
    'vbscript:{% if true %}x{% endif %}',
  ])('refuses %p naming the field and its value', (url) => {
    expect(literalUrlErrors(withRedirect(url), 'steps[0].template')).toEqual({
      'steps[0].template.cta.data.url': { messages: [UNSAFE_URL_MESSAGE], value: url },
    });
  });

  it.each([
    '{{payload.url}}',
    '{{ payload.url }}',
    '{% if payload.a %}javascript:x{% endif %}',
    'https://{{payload.host}}/orders',
    '/orders/{{payload.id}}',
    'java{{payload.rest}}',
    'https://example.com',
    '/relative',
    '',
  ])('leaves %p to the render check or accepts it', (url) => {
    expect(literalUrlErrors(withRedirect(url), 'steps[0].template')).toEqual({});
  });

  it('names each bad button url, flat or as redirect.url', () => {
    const template = {
      cta: {
        action: {
          buttons: [
            { type: 'primary', content: 'Go', url: 'file:///etc/passwd' },
            { type: 'secondary', content: 'Ok', redirect: { url: '/fine' }, url: 'https://fine.example.com' },
            { type: 'secondary', content: 'No', redirect: { url: 'javascript:void(0)' } },
          ],
        },
      },
    };
    expect(Object.keys(literalUrlErrors(template, 't'))).toEqual([
      't.cta.action.buttons[0].url',
      't.cta.action.buttons[2].redirect.url',
    ]);
  });

  it('finds nothing in a template without a cta', () => {
    expect(literalUrlErrors({}, 't')).toEqual({});
  });
});
