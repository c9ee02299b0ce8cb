import type { CredentialsCipher } from '../crypto/credentials-cipher.js';

/** What every response shows instead of a secret value. */
export const MASKED_VALUE = '••••••••';

/** Keys as templates read them (`env.API_BASE_URL`): upper case letters, digits and underscores, a letter first. */
export const VARIABLE_KEY_PATTERN = /^[A-Z][A-Z0-9_]*$/;

/** A value as stored: secret values sealed with the credentials cipher (AES-256-GCM), others as they are. */
export function sealValue(cipher: CredentialsCipher, value: string, isSecret: boolean): string {
  return isSecret ? cipher.encrypt({ value }) : value;
}

/** The plain value of a stored one. */
export function openValue(cipher: CredentialsCipher, stored: string, isSecret: boolean): string {
  if (!isSecret) return stored;
  const { value } = cipher.decrypt(stored) as { value?: unknown };
  return typeof value === 'string' ? value : '';
}
