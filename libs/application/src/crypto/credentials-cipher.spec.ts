import { describe, expect, it } from '@jest/globals';
import { AppConfig } from '#common';
import { CredentialsCipher } from './credentials-cipher.js';

function cipherWith(key: string | undefined): CredentialsCipher {
  const config = new AppConfig();
  config.encryptionKey = key;
  return new CredentialsCipher(config);
}

describe('CredentialsCipher', () => {
  const cipher = cipherWith('1f'.repeat(32));

  it('round-trips an object', () => {
    const value = { apiKey: 'secret-123', secure: true, tlsOptions: { rejectUnauthorized: false } };
    expect(cipher.decrypt(cipher.encrypt(value))).toEqual(value);
  });

  it('writes a versioned envelope without the plaintext', () => {
    const envelope = cipher.encrypt({ apiKey: 'secret-123' });
    expect(envelope.startsWith('v1:')).toBe(true);
    expect(envelope.split(':')).toHaveLength(4);
    expect(envelope).not.toContain('secret-123');
  });

  it('uses a fresh IV for every value', () => {
    expect(cipher.encrypt({ a: 1 })).not.toBe(cipher.encrypt({ a: 1 }));
  });

  it('rejects a tampered ciphertext', () => {
    const [version, iv, tag, data] = cipher.encrypt({ apiKey: 'x' }).split(':');
    const flipped = Buffer.from(data, 'base64');
    flipped[0] ^= 1;
    expect(() => cipher.decrypt([version, iv, tag, flipped.toString('base64')].join(':'))).toThrow();
  });

  it('rejects a value made with another key', () => {
    const other = cipherWith('2e'.repeat(32));
    expect(() => cipher.decrypt(other.encrypt({ apiKey: 'x' }))).toThrow();
  });

  it('rejects an unknown envelope version', () => {
    expect(() => cipher.decrypt('v9:a:b:c')).toThrow('Unrecognised credentials envelope');
  });

  it('refuses to start without a key', () => {
    expect(() => cipherWith(undefined)).toThrow();
  });
});
