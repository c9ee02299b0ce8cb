import { describe, expect, it } from '@jest/globals';
import { isClientSafeUrl } from './client-url.js';

describe('isClientSafeUrl', () => {
  it.each([
    ['an https URL', 'https://example.com/orders/7?tab=items#top'],
    ['an http URL', 'http://example.com'],
    ['an upper-case scheme', 'HTTPS://example.com/x'],
    ['an http URL with credentials and a port', 'https://user:pass@example.com:8443/a'],
    ['an https URL with a colon in its path and an & in its query', 'https://example.com/a:b?x=1&y=2'],
    ['a protocol-relative URL (http(s) of another host)', '//cdn.example.com/a'],
    ['a root-relative path', '/invoices/42'],
    ['a path without a slash', 'settings/profile'],
    ['a dot path', '../up/one'],
    ['a query only', '?page=2&sort=desc'],
    ['a fragment only', '#section-2'],
    ['a colon after the first slash', '/time/12:30'],
    ['an & after the first slash', '/search?q=a&b'],
    ['an empty string (the page itself)', ''],
    ['surrounding spaces', '  /orders  '],
    ['a leading newline before an https URL', '\nhttps://example.com'],
    ['a percent-encoded colon', 'javascript%3Aalert(1)'],
    ['a fullwidth colon (no scheme for a browser)', 'javascript：alert(1)'],
  ])('allows %s', (_name, url) => expect(isClientSafeUrl(url)).toBe(true));

  it.each([
    ['javascript:', 'javascript:alert(document.domain)'],
    ['mixed case', 'JaVaScRiPt:alert(1)'],
    ['a leading space', ' javascript:alert(1)'],
    ['leading control characters', '\u0001\u0008\u001fjavascript:alert(1)'],
    ['a leading tab and newline', '\t\njavascript:alert(1)'],
    ['a tab inside the scheme', 'java\tscript:alert(1)'],
    ['a newline inside the scheme', 'java\nscript:alert(1)'],
    ['a carriage return inside the scheme', 'jav\r\nascript:alert(1)'],
    ['a NUL inside the scheme', 'java\u0000script:alert(1)'],
    ['a DEL', '/a\u007fb'],
    ['javascript: with slashes', 'javascript://example.com/%0aalert(1)'],
    ['data:', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['upper-case data:', 'DATA:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['file:', 'file:///etc/passwd'],
    ['blob:', 'blob:https://example.com/uuid'],
    ['mailto: (not an http(s) URL)', 'mailto:a@example.com'],
    ['an unknown scheme', 'x-app+custom.v1:open'],
    ['a scheme with nothing after it', 'javascript:'],
    ['an HTML-entity colon', 'javascript&colon;alert(1)'],
    ['an HTML-entity letter', '&#106;avascript:alert(1)'],
    ['a hex HTML-entity letter', '&#x6A;avascript:alert(1)'],
    ['an HTML-entity tab inside the scheme', 'java&Tab;script:alert(1)'],
    ['a non-breaking space before the scheme', '\u00a0javascript:alert(1)'],
    ['a byte-order mark before the scheme', '\ufeffjavascript:alert(1)'],
    ['a space inside the scheme', 'java script:alert(1)'],
  ])('refuses %s', (_name, url) => expect(isClientSafeUrl(url)).toBe(false));

  it('never allows what a browser would resolve to another scheme than http(s)', () => {
    const noise = ['', ' ', '\t', '\n', '\r', '\u0000', '\u000b', '\u00a0', '/', '\\', '%20', '&#10;'];
    const schemes = ['javascript', 'JavaScript', 'data', 'vbscript', 'file', 'https', 'http'];
    const base = 'https://app.example.com/inbox/';
    let allowed = 0;
    for (const before of noise)
      for (const inside of noise)
        for (const scheme of schemes) {
          const url = `${before}${scheme.slice(0, 3)}${inside}${scheme.slice(3)}:alert(1)`;
          if (!isClientSafeUrl(url)) continue;
          allowed += 1;
          // Node's URL is the WHATWG parser browsers use for links.
          const protocol = URL.parse(url, base)?.protocol;
          expect([undefined, 'http:', 'https:']).toContain(protocol);
        }
    expect(allowed).toBeGreaterThan(0);
  });
});
