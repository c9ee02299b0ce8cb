import { createHash } from 'node:crypto';
import { httpFailure, providerRequest } from '../http/provider-request.js';
import { ProviderError, type SendOptions } from '../provider.js';
import { signJwt } from './jwt.js';

export interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  token_uri: string;
}

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** Parses the service-account JSON file stored in the integration's `serviceAccount` credential. */
export function parseServiceAccount(raw: unknown): ServiceAccount {
  let parsed: Record<string, unknown>;
  try {
    parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
  } catch {
    throw new ProviderError('The serviceAccount credential is not valid JSON', false, undefined, 'credentials');
  }
  const missing = ['project_id', 'client_email', 'private_key'].filter(
    (key) => typeof parsed?.[key] !== 'string' || !parsed[key],
  );
  if (missing.length > 0)
    throw new ProviderError(
      `The serviceAccount credential is missing ${missing.join(', ')}`,
      false,
      undefined,
      'credentials',
    );
  const tokenUri = typeof parsed.token_uri === 'string' && parsed.token_uri ? parsed.token_uri : GOOGLE_TOKEN_URI;
  return {
    project_id: parsed.project_id as string,
    client_email: parsed.client_email as string,
    private_key: parsed.private_key as string,
    token_uri: tokenUri,
  };
}

const cacheKey = (account: ServiceAccount) =>
  createHash('sha256').update(`${account.client_email}\n${account.token_uri}\n${account.private_key}`).digest('hex');

/**
 * OAuth2 access tokens from a service account (JWT bearer grant, RS256), cached until a minute before
 * they expire so a burst of sends costs one token request.
 */
export class GoogleTokenSource {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>();

  constructor(private readonly scope: string) {}

  async accessToken(account: ServiceAccount, options: SendOptions & { guard: boolean }): Promise<string> {
    const key = cacheKey(account);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    const now = Math.floor(Date.now() / 1000);
    const assertion = signJwt(
      'RS256',
      { typ: 'JWT' },
      { iss: account.client_email, scope: this.scope, aud: account.token_uri, iat: now, exp: now + 3600 },
      account.private_key,
    );
    const call = {
      provider: 'Google OAuth token endpoint',
      url: account.token_uri,
      guard: options.guard,
      form: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
      secrets: [assertion, account.private_key],
    };
    const answer = await providerRequest(call, options);
    const body = answer.data as
      { access_token?: string; expires_in?: number; error_description?: unknown; error?: unknown } | undefined;
    if (!answer.ok || !body?.access_token) {
      const reason = [body?.error_description, body?.error].find((value): value is string => typeof value === 'string');
      throw httpFailure(call, answer, reason);
    }
    this.cache.set(key, {
      token: body.access_token,
      expiresAt: Date.now() + Math.max(0, (body.expires_in ?? 3600) - 60) * 1000,
    });
    return body.access_token;
  }

  /** Forgets a token the API refused, so the next attempt fetches a fresh one. */
  forget(account: ServiceAccount): void {
    this.cache.delete(cacheKey(account));
  }
}
