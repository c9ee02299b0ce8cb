import { ProviderError, type ProviderCredentials } from '../provider.js';

/** A non-empty string credential, or undefined. */
export function optional(credentials: ProviderCredentials, key: string): string | undefined {
  const value = credentials[key];
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined;
}

/** The named credentials, all required; a missing one is a configuration error (not retryable). */
export function required<K extends string>(
  credentials: ProviderCredentials,
  providerId: string,
  keys: readonly K[],
): Record<K, string> {
  const missing = keys.filter((key) => optional(credentials, key) === undefined);
  if (missing.length > 0)
    throw new ProviderError(
      `The ${providerId} integration is missing credentials: ${missing.join(', ')}`,
      false,
      undefined,
      'credentials',
    );
  return Object.fromEntries(keys.map((key) => [key, optional(credentials, key)!])) as Record<K, string>;
}

/**
 * The API origin: the provider's public one, or the integration's `baseUrl` (self-hosted, EU regions,
 * tests). An override is client-supplied, so calls to it go through the SSRF guard.
 */
export function apiBase(credentials: ProviderCredentials, defaultBase: string): { base: string; guard: boolean } {
  const override = optional(credentials, 'baseUrl');
  return override ? { base: override.replace(/\/+$/, ''), guard: true } : { base: defaultBase, guard: false };
}

/** `Name <address>` with the name quoted when it holds characters that need it. */
export function mailbox(address: string, name: string | undefined): string {
  if (!name) return address;
  return /^[\w .-]+$/.test(name) ? `${name} <${address}>` : `"${name.replace(/["\\]/g, '\\$&')}" <${address}>`;
}

/** Flattens a payload into the string map FCM-like `data` fields require. */
export function stringMap(payload: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(payload)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
}
