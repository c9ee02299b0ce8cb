import { createHash } from 'node:crypto';
import { signJwt } from '../auth/jwt.js';
import { apiBase, required } from '../http/credentials.js';
import { answerTooLarge, isRetryableStatus, redact } from '../http/provider-request.js';
import { assertPublicTarget } from '../http/target-guard.js';
import {
  InvalidDeviceTokenError,
  ProviderError,
  type ProviderAdapter,
  type ProviderCredentials,
  type PushMessage,
  type SendOptions,
  type SendResult,
} from '../provider.js';
import { Http2PostError, Http2SessionPool, type Http2Answer } from './http2-sessions.js';

/** APNs reasons meaning the token is not (or no longer) valid for this app. */
const DEAD_TOKEN_REASONS = new Set(['BadDeviceToken', 'DeviceTokenNotForTopic', 'Unregistered', 'ExpiredToken']);
/** Apple rejects provider tokens refreshed more often than every 20 minutes, and older than an hour. */
const JWT_LIFETIME_MS = 45 * 60_000;

/** The `reason` of an APNs error answer (`{"reason":"BadDeviceToken"}`), or ''. */
function reasonOf(body: string): string {
  try {
    const reason = (JSON.parse(body) as { reason?: unknown } | null)?.reason;
    return typeof reason === 'string' ? reason : '';
  } catch {
    return '';
  }
}

const codeOf = (value: unknown) => {
  const code = (value as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * Apple Push Notification service over HTTP/2: POST /3/device/{token} with an ES256 provider token
 * (JWT: kid = key id, iss = team id) and the apns-topic header (bundle id). Credentials as Novu:
 * secretKey = .p8 private key, apiKey = key id, projectName = team id, applicationId = bundle id,
 * secure = production endpoint (else sandbox). One HTTP/2 session per endpoint and key is kept open
 * and reused, as Apple asks.
 */
export class ApnsProvider implements ProviderAdapter<PushMessage> {
  readonly providerId = 'apns';
  readonly channel = 'push' as const;
  private readonly jwts = new Map<string, { jwt: string; expiresAt: number }>();
  private readonly sessions = new Http2SessionPool();

  async send(message: PushMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const {
      secretKey,
      apiKey: keyId,
      projectName: teamId,
      applicationId: bundleId,
    } = required(credentials, this.providerId, ['secretKey', 'apiKey', 'projectName', 'applicationId']);
    const production = credentials.secure === true || credentials.secure === 'true';
    const { base, guard } = apiBase(
      credentials,
      production ? 'https://api.push.apple.com' : 'https://api.sandbox.push.apple.com',
    );
    const origin = guard ? await assertPublicTarget(base, options.allowPrivateTargets) : new URL(base);
    const keyHash = this.jwtKey(secretKey, keyId, teamId);
    const jwt = this.providerToken(keyHash, secretKey, keyId, teamId);
    const { title, content, payload } = message;
    const headers = {
      authorization: `bearer ${jwt}`,
      'apns-topic': bundleId,
      'apns-push-type': 'alert',
      'apns-priority': '10',
      'content-type': 'application/json',
    };
    const secrets = [jwt, secretKey];
    let answer: Http2Answer;
    try {
      answer = await this.sessions.post({
        origin,
        sessionKey: keyHash,
        guarded: guard && !options.allowPrivateTargets,
        path: `${origin.pathname.replace(/\/+$/, '')}/3/device/${encodeURIComponent(message.deviceToken)}`,
        headers,
        body: JSON.stringify({ ...payload, aps: { alert: { title, body: content } } }),
        timeoutMs: options.timeoutMs,
      });
    } catch (error) {
      throw this.requestFailure(error, secrets);
    }
    const raw = redact(answer.body, secrets).slice(0, 2000);
    if (answer.status === 200) return { id: String(answer.headers['apns-id'] ?? ''), date: new Date().toISOString() };
    const reason = reasonOf(answer.body);
    if (answer.status === 410 || DEAD_TOKEN_REASONS.has(reason))
      throw new InvalidDeviceTokenError(`APNs rejected the device token: ${reason || 'Unregistered'}`, raw);
    // A refused provider token is re-minted on the next attempt.
    const expired = answer.status === 403 && reason === 'ExpiredProviderToken';
    if (expired) this.jwts.delete(keyHash);
    const kind = answer.status === 403 ? 'credentials' : 'provider';
    throw new ProviderError(
      `APNs answered HTTP ${answer.status}${reason ? `: ${reason}` : ''}`,
      expired || isRetryableStatus(answer.status),
      raw || undefined,
      kind,
    );
  }

  /** Closes the open sessions (module shutdown). */
  close(): Promise<void> {
    return this.sessions.close();
  }

  private requestFailure(error: unknown, secrets: string[]): ProviderError {
    // The guard refused the address the connection resolved: the session fails with its error, and the
    // pending stream with that error as its cause.
    const cause = (error as { cause?: unknown }).cause;
    if (error instanceof ProviderError) return error;
    if (cause instanceof ProviderError) return cause;
    if (error instanceof Http2PostError && error.tooLarge) return answerTooLarge('APNs', error.status);
    const reason = codeOf(cause) ?? codeOf(error) ?? (error instanceof Error ? error.message : String(error));
    return new ProviderError(redact(`APNs request failed: ${reason}`, secrets), true);
  }

  private jwtKey(secretKey: string, keyId: string, teamId: string): string {
    return createHash('sha256').update(`${keyId}\n${teamId}\n${secretKey}`).digest('hex');
  }

  private providerToken(key: string, secretKey: string, keyId: string, teamId: string): string {
    const cached = this.jwts.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.jwt;
    const jwt = signJwt('ES256', { kid: keyId }, { iss: teamId, iat: Math.floor(Date.now() / 1000) }, secretKey);
    this.jwts.set(key, { jwt, expiresAt: Date.now() + JWT_LIFETIME_MS });
    return jwt;
  }
}
