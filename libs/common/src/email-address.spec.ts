import { describe, expect, it } from '@jest/globals';
import { isEmailAddress } from './email-address.js';

describe('isEmailAddress: exactly one bare address', () => {
  it.each([
    'ada@example.com',
    'Ada@Example.COM',
    "o'brien+tag@mail.example.co.uk",
    'x_y-z.1@localhost',
    'münchen@bücher.example',
  ])('accepts %j', (value) => {
    expect(isEmailAddress(value)).toBe(true);
  });

  it.each([
    ['two addresses with a comma', 'victim@acme.test, attacker@evil.test'],
    ['two addresses without a space', 'victim@acme.test,attacker@evil.test'],
    ['a semicolon list', 'a@acme.test;b@evil.test'],
    ['a header after CR/LF', 'ok@acme.test\r\nBcc: hidden@evil.test'],
    ['a trailing LF', 'ok@acme.test\n'],
    ['a lone CR', 'ok@acme.test\rX'],
    ['a tab', 'ok@\tacme.test'],
    ['a space', 'o k@acme.test'],
    ['a display name', 'Victim <victim@acme.test>'],
    ['an angle-bracketed address', '<victim@acme.test>'],
    ['a group syntax', 'undisclosed:victim@acme.test;'],
    ['a quoted local part', '"a,b"@acme.test'],
    ['a comment', 'victim@acme.test(comment)'],
    ['no @', 'no-at-sign'],
    ['two @', 'two@@acme.test'],
    ['an empty local part', '@acme.test'],
    ['an empty domain', 'ada@'],
    ['a NUL', 'ada@acme.test\u0000'],
    ['a unicode line separator', 'ada@acme.test\u2028x'],
    ['the empty string', ''],
    ['over 320 characters', `${'a'.repeat(64)}@${'b'.repeat(300)}.test`],
  ])('refuses %s', (_name, value) => {
    expect(isEmailAddress(value)).toBe(false);
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, ['a@b.c'], { email: 'a@b.c' }]) expect(isEmailAddress(value)).toBe(false);
  });
});
