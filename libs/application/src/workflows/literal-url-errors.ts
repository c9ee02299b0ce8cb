import { isClientSafeUrl, type FieldErrors } from '#common';
import { ctaUrls } from '../messages/cta-urls.js';

const LIQUID_TAG = /\{[{%]/;

export const UNSAFE_URL_MESSAGE =
  'must be an http(s) URL or a relative one (javascript:, data: and other schemes are refused)';

/**
 * The cta urls of a step template that a client must not open, as `{ 'steps[0].template.cta.data.url':
 * { messages, value } }`. What Liquid renders is only known when the step runs, where the url is checked
 * again; the literal text before a url's first tag is judged now, so `javascript:{{payload.code}}` is
 * refused while `{{payload.url}}` and `https://{{payload.host}}/x` are not.
 */
export function literalUrlErrors(template: { cta?: unknown }, path: string): FieldErrors {
  return Object.fromEntries(
    ctaUrls(template.cta)
      .filter(({ url }) => !isClientSafeUrl(url.split(LIQUID_TAG, 1)[0]))
      .map(({ path: at, url }) => [`${path}.cta.${at}`, { messages: [UNSAFE_URL_MESSAGE], value: url }]),
  );
}
