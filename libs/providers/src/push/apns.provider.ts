import { connect, constants } from 'node:http2';
import { createHash } from 'node:crypto';
import { signJwt } from '../auth/jwt.js';
import { apiBase, required } from '../http/credentials.js';
import { answerTooLarge, isRetryableStatus, MAX_ANSWER_BYTES, redact } from '../http/provider-request.js';
import { assertPublicTarget, guardedLookup } from '../http/target-guard.js';
import {
  InvalidDeviceTokenError,
  ProviderError,
  type ProviderAdapter,
  type ProviderCredentials,
  type PushMessage,
  type SendOptions,
  type SendResult,
} from '../provider.js';

/** APNs reasons meaning the token is not (or no longer) valid for this app. */
const DEAD_TOKEN_REASONS = new Set(['BadDeviceToken', 'DeviceTokenNotForTopic', 'Unregistered', 'ExpiredToken']);
/** Apple rejects provider tokens refreshed more often than every 20 minutes, and older than an hour. */
const JWT_LIFETIME_MS = 45 * 60_000;

interface Http2Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** `guarded`: the socket resolves through the SSRF guard (a baseUrl override, checked again when connecting). */
function http2Post(
  origin: URL,
  path: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  guarded: boolean,
): Promise<Http2Answer> {
  return new Promise((resolve, reject) => {
    const session = connect(origin, guarded ? { lookup: guardedLookup } : {});
    const timer = setTimeout(() => {
      session.destroy();
      reject(Object.assign(new Error(`timed out after ${timeoutMs} ms`), { timedOut: true }));
    }, timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      session.destroy();
      reject(error);
    };
    session.on('error', fail);
    const request = session.request({
      [constants.HTTP2_HEADER_METHOD]: 'POST',
      [constants.HTTP2_HEADER_PATH]: path,
      ...headers,
    });
    request.on('error', fail);
    let status = 0;
    let responseHeaders: Http2Answer['headers'] = {};
    const chunks: Buffer[] = [];
    request.on('response', (received) => {
      status = Number(received[constants.HTTP2_HEADER_STATUS]);
      responseHeaders = received;
    });
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES)
        return fail(Object.assign(new Error('answer too large'), { tooLarge: true, status }));
      chunks.push(chunk);
    });
    request.on('end', () => {
      clearTimeout(timer);
      session.close();
      resolve({ status, headers: responseHeaders, body: Buffer.concat(chunks).toString('utf8') });
    });
    request.end(body);
  });
}

/**
 * Apple Push Notification service over HTTP/2: POST /3/device/{token} with an ES256 provider token
 * (JWT: kid = key id, iss = team id) and the apns-topic header (bundle id). Credentials as Novu:
 * secretKey = .p8 private key, apiKey = key id, projectName = team id, applicationId = bundle id,
 * secure = production endpoint (else sandbox).
 */
export class ApnsProvider implements ProviderAdapter<PushMessage> {
  readonly providerId = 'apns';
  readonly channel = 'push' as const;
  private readonly jwts = new Map<string, { jwt: string; expiresAt: number }>();

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
    const jwt = this.providerToken(secretKey, keyId, teamId);
    const { title, content, payload } = message;
    const body = JSON.stringify({ ...payload, aps: { alert: { title, body: content } } });
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
      answer = await http2Post(
        origin,
        `${origin.pathname.replace(/\/+$/, '')}/3/device/${encodeURIComponent(message.deviceToken)}`,
        headers,
        body,
        options.timeoutMs,
        guard && !options.allowPrivateTargets,
      );
    } catch (error) {
      const failure = error as Error & { code?: string; tooLarge?: boolean; status?: number; cause?: unknown };
      // The guard refused the address the connection resolved: the session fails with its error, the pending stream with it as cause.
      if (error instanceof ProviderError) throw error;
      if (failure.cause instanceof ProviderError) throw failure.cause;
      if (failure.tooLarge) throw answerTooLarge('APNs', failure.status ?? 0);
      throw new ProviderError(redact(`APNs request failed: ${failure.code ?? failure.message}`, secrets), true);
    }
    const raw = redact(answer.body, secrets).slice(0, 2000);
    if (answer.status === 200) return { id: String(answer.headers['apns-id'] ?? ''), date: new Date().toISOString() };
    let reason = '';
    try {
      reason = (JSON.parse(answer.body) as { reason?: string }).reason ?? '';
    } catch {
      reason = '';
    }
    if (answer.status === 410 || DEAD_TOKEN_REASONS.has(reason))
      throw new InvalidDeviceTokenError(`APNs rejected the device token: ${reason || 'Unregistered'}`, raw);
    // A refused provider token is re-minted on the next attempt.
    const expired = answer.status === 403 && reason === 'ExpiredProviderToken';
    if (expired) this.jwts.delete(this.jwtKey(secretKey, keyId, teamId));
    const kind = answer.status === 403 ? 'credentials' : 'provider';
    throw new ProviderError(
      `APNs answered HTTP ${answer.status}${reason ? `: ${reason}` : ''}`,
      expired || isRetryableStatus(answer.status),
      raw || undefined,
      kind,
    );
  }

  private jwtKey(secretKey: string, keyId: string, teamId: string): string {
    return createHash('sha256').update(`${keyId}\n${teamId}\n${secretKey}`).digest('hex');
  }

  private providerToken(secretKey: string, keyId: string, teamId: string): string {
    const key = this.jwtKey(secretKey, keyId, teamId);
    const cached = this.jwts.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.jwt;
    const jwt = signJwt('ES256', { kid: keyId }, { iss: teamId, iat: Math.floor(Date.now() / 1000) }, secretKey);
    this.jwts.set(key, { jwt, expiresAt: Date.now() + JWT_LIFETIME_MS });
    return jwt;
  }
}
