import { createHash, randomBytes } from 'node:crypto';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(): string {
  return randomBytes(24).toString('hex');
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, 8);
}
