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

/** The token endpoint's JSON answer: a token and its lifetime, or an OAuth error. */
function tokenAnswer(data: unknown): { token?: string; expiresIn?: number; reason?: string } {
  const body = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  return {
    token: text(body.access_token),
    expiresIn: typeof body.expires_in === 'number' ? body.expires_in : undefined,
    reason: text(body.error_description) ?? text(body.error),
  };
}

/**
 * OAuth2 access tokens from a service account (JWT bearer grant, RS256), cached until a minute before
 * they expire so a burst of sends costs one token request. Sends that miss the cache at the same time
 * wait for one request rather than each asking for a token.
 */
export class GoogleTokenSource {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<string>>();

  constructor(private readonly scope: string) {}

  accessToken(account: ServiceAccount, options: SendOptions & { guard: boolean }): Promise<string> {
    const key = cacheKey(account);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return Promise.resolve(cached.token);
    let request = this.pending.get(key);
    if (!request) {
      request = this.requestToken(key, account, options).finally(() => this.pending.delete(key));
      this.pending.set(key, request);
    }
    return request;
  }

  /** Forgets a token the API refused, so the next attempt fetches a fresh one. */
  forget(account: ServiceAccount): void {
    this.cache.delete(cacheKey(account));
  }

  private async requestToken(
    key: string,
    account: ServiceAccount,
    options: SendOptions & { guard: boolean },
  ): Promise<string> {
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
    const { token, expiresIn = 3600, reason } = tokenAnswer(answer.data);
    if (!answer.ok || !token) throw httpFailure(call, answer, reason);
    this.cache.set(key, { token, expiresAt: Date.now() + Math.max(0, expiresIn - 60) * 1000 });
    return token;
  }
}
