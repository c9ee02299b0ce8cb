import { describe, expect, it } from '@jest/globals';
import { ctaUrls, withoutUnsafeUrls } from './cta-urls.js';

const cta = () => ({
  type: 'redirect',
  data: { url: 'javascript:alert(1)', target: '_blank' },
  action: {
    status: 'pending',
    buttons: [
      { type: 'primary', content: 'Pay', url: '/pay' },
      { type: 'secondary', content: 'Later', redirect: { url: ' JaVa\tScRiPt:alert(2)', target: '_self' } },
    ],
  },
});

describe('ctaUrls', () => {
  it('finds the redirect and every button url, flat or as redirect.url', () => {
    expect(ctaUrls(cta())).toEqual([
      { path: 'data.url', url: 'javascript:alert(1)' },
      { path: 'action.buttons[0].url', url: '/pay' },
      { path: 'action.buttons[1].redirect.url', url: ' JaVa\tScRiPt:alert(2)' },
    ]);
  });

  it.each([null, undefined, 'x', [], {}, { data: 'x', action: { buttons: 'x' } }, { data: { url: 7 } }])(
    'finds none in %p',
    (value) => expect(ctaUrls(value)).toEqual([]),
  );
});

describe('withoutUnsafeUrls', () => {
  it('drops only the unsafe urls, keeps everything else, and leaves its argument alone', () => {
    const original = cta();
    const { cta: safe, removed } = withoutUnsafeUrls(original);
    expect(removed.map(({ path }) => path)).toEqual(['data.url', 'action.buttons[1].redirect.url']);
    expect(safe).toEqual({
      type: 'redirect',
      data: { target: '_blank' },
      action: {
        status: 'pending',
        buttons: [
          { type: 'primary', content: 'Pay', url: '/pay' },
          { type: 'secondary', content: 'Later', redirect: { target: '_self' } },
        ],
      },
    });
    expect(original).toEqual(cta());
  });

  it('answers a cta without unsafe urls as it is', () => {
    const fine = { data: { url: 'https://example.com' }, action: { buttons: [{ type: 'primary', url: '#a' }] } };
    expect(withoutUnsafeUrls(fine)).toEqual({ cta: fine, removed: [] });
    expect(withoutUnsafeUrls(fine).cta).toBe(fine);
  });
});
