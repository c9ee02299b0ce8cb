/** What a browser's URL parser drops before it reads a scheme (WHATWG URL): tabs and newlines anywhere... */
const TAB_OR_NEWLINE = /[\t\n\r]/g;
/** ...and C0 controls and spaces at either end. */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const EDGE_CONTROLS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
// eslint-disable-next-line no-control-regex -- likewise
const CONTROL = /[\u0000-\u001f\u007f]/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const SAFE_SCHEMES = new Set(['http', 'https']);
/** Where a relative reference's first segment ends; browsers read `\` as `/` in http(s) URLs. */
const SEGMENT_END = /[/?#\\]/;

/**
 * Whether a client may link or navigate to this URL: an absolute http(s) URL, a protocol-relative
 * one (`//host/...`, which is http(s) on another host) or a relative reference (a path, query or
 * fragment; an empty string is the page itself). The scheme is read as a browser reads it, after
 * dropping what its URL parser drops, so ` JaVa\tScRiPt:` is `javascript:`; `javascript:`, `data:`,
 * `vbscript:`, `file:` and every other scheme are refused.
 */
export function isClientSafeUrl(url: string): boolean {
  const normalized = url.replace(TAB_OR_NEWLINE, '').replace(EDGE_CONTROLS, '');
  // No link needs a control character, and parsers disagree on them (HTML turns NUL into U+FFFD).
  if (CONTROL.test(normalized)) return false;
  const scheme = SCHEME.exec(normalized);
  if (scheme) return SAFE_SCHEMES.has(scheme[1].toLowerCase());
  // A colon or `&` before the first `/`, `?` or `#` is no path a link needs, and a client that puts
  // the URL into HTML unescaped would decode `javascript&colon;` or `&#106;avascript:` into a scheme.
  return !/[:&]/.test(normalized.split(SEGMENT_END, 1)[0]);
}
