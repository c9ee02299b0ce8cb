import { describe, expect, it } from '@jest/globals';
import { assertPublicTarget, PRIVATE_TARGET_REFUSED } from './target-guard.js';

const refused = async (url: string) => {
  await expect(assertPublicTarget(url, false)).rejects.toMatchObject({ message: PRIVATE_TARGET_REFUSED, retryable: false, kind: 'target' });
};

describe('SSRF guard (assertPublicTarget)', () => {
  it.each([
    'http://127.0.0.1/',
    'http://10.1.2.3/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[::ffff:127.0.0.1]/',
  ])('refuses the plain private address %s', refused);

  it.each([
    // NAT64 well-known prefix (RFC 6052) with a private IPv4 in its last 32 bits.
    'http://[64:ff9b::127.0.0.1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[64:ff9b::169.254.169.254]/',
    'http://[64:ff9b::c0a8:101]/',
    // NAT64 local-use prefix (RFC 8215): the operator chooses where the IPv4 sits, so all of it.
    'http://[64:ff9b:1::1]/',
    'http://[64:ff9b:1:ffff::808:808]/',
    // IPv4-compatible (deprecated ::/96) forms, dotted and as URL parsers normalize them.
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[::10.0.0.1]/',
    'http://[::a9fe:a9fe]/',
    // IPv4-mapped, in the hex form the URL parser produces, and IPv4-translated (::ffff:0:0/96).
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:a00:1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[::ffff:0:10.0.0.1]/',
    // 6to4 (2002::/16) carrying a private IPv4 in bits 16-47.
    'http://[2002:7f00:1::1]/',
    'http://[2002:a9fe:a9fe::]/',
  ])('refuses %s, which embeds a private IPv4', refused);

  it.each([
    'http://[64:ff9b::8.8.8.8]/',
    'http://[64:ff9b::5db8:d822]/',
    'http://[::ffff:8.8.8.8]/',
    'http://[2002:808:808::1]/',
    'http://[2606:4700:4700::1111]/',
    'http://93.184.215.14/',
  ])('lets %s through (a public address, also when embedded)', async (url) => {
    await expect(assertPublicTarget(url, false)).resolves.toBeInstanceOf(URL);
  });

  it('ALLOW_PRIVATE_WEBHOOK_TARGETS lifts the check', async () => {
    await expect(assertPublicTarget('http://[64:ff9b::127.0.0.1]/', true)).resolves.toBeInstanceOf(URL);
  });
});
