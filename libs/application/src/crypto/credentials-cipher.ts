import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '#common';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';
const IV_BYTES = 12;

/**
 * Integration credentials at rest: AES-256-GCM with a fresh IV per value, stored as
 * `v1:<iv>:<tag>:<ciphertext>` (base64). The version prefix leaves room for key rotation later.
 */
@Injectable()
export class CredentialsCipher {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    if (!config.encryptionKey) throw new Error('No encryption key configured for integration credentials');
    this.key = Buffer.from(config.encryptionKey, 'hex');
    if (this.key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  }

  encrypt(value: Record<string, unknown>): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(
      ':',
    );
  }

  /** Throws when the envelope is malformed, of an unknown version, or was not made with this key. */
  decrypt(envelope: string): Record<string, unknown> {
    const parts = envelope.split(':');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('Unrecognised credentials envelope');
    const [, iv, tag, ciphertext] = parts.map((part) => Buffer.from(part, 'base64'));
    const decipher = createDecipheriv(ALGORITHM, this.key, iv);
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    return JSON.parse(plain) as Record<string, unknown>;
  }
}
