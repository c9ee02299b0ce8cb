import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, DomainError } from '#common';

/** Who an inbox session token speaks for: one subscriber of one environment. */
export interface InboxSession {
  environmentId: string;
  organizationId: string;
  /** The subscriber's row id (also its realtime room). */
  subscriberRowId: string;
  /** The subscriber's external id, as the tenant named it. */
  subscriberId: string;
  /** The subscriber row's generation at the session's start: a delete since ends the session. */
  generation: number;
  /**
   * The session proved its subscriberId with a subscriberHash (and its context with a contextHash):
   * it survives HMAC being required.
   */
  hashProven: boolean;
  /**
   * The API key whose HMAC made that proof: once it is revoked the session counts as unproven. None in
   * tokens issued before the key was recorded (they expire within SESSION_TOKEN_TTL_SECONDS).
   */
  proofKeyId?: string;
  /** The session's context as `type:id`, sorted: it sees only the messages of exactly this context. */
  contextKeys: string[];
}

interface TokenClaims {
  /** subscriber row id */
  sub: string;
  /** external subscriber id */
  sid: string;
  env: string;
  org: string;
  /** subscriber row generation */
  gen: number;
  /** proven by a subscriberHash */
  hmac: boolean;
  /** the API key of that proof */
  pk?: string;
  /** context keys; absent for a session without context */
  ctx?: string[];
  aud: typeof AUDIENCE;
  iat: number;
  exp: number;
}

const AUDIENCE = 'inbox';
const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
/** Long enough for a browser tab left open over a working day; @novu/js opens a new session on reload. */
export const SESSION_TOKEN_TTL_SECONDS = 24 * 3600;

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/**
 * HS256 JWTs for inbox sessions. The signing key is derived (HKDF) from the deployment's encryption
 * key, so every api process of one deployment accepts the tokens of the others and no new secret has
 * to be configured; rotating ENCRYPTION_KEY ends every session.
 */
@Injectable()
export class SessionTokens {
  private readonly key: Buffer;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    if (!config.encryptionKey) throw new Error('No encryption key configured to sign inbox sessions');
    this.key = Buffer.from(
      hkdfSync('sha256', Buffer.from(config.encryptionKey, 'hex'), Buffer.alloc(0), 'inbox-session-token', 32),
    );
  }

  issue(session: InboxSession): string {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims: TokenClaims = {
      sub: session.subscriberRowId,
      sid: session.subscriberId,
      env: session.environmentId,
      org: session.organizationId,
      gen: session.generation,
      hmac: session.hashProven,
      ...(session.proofKeyId ? { pk: session.proofKeyId } : {}),
      ...(session.contextKeys.length > 0 ? { ctx: session.contextKeys } : {}),
      aud: AUDIENCE,
      iat,
      exp: iat + SESSION_TOKEN_TTL_SECONDS,
    };
    const unsigned = `${HEADER}.${base64url(JSON.stringify(claims))}`;
    return `${unsigned}.${this.sign(unsigned)}`;
  }

  /** The session a token carries; a malformed, forged, foreign or expired token is a 401. */
  verify(token: string): InboxSession {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== HEADER) throw invalid();
    const expected = Buffer.from(this.sign(`${parts[0]}.${parts[1]}`));
    const given = Buffer.from(parts[2]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    const claims = parseClaims(parts[1]);
    if (!claims) throw invalid();
    if (claims.exp <= this.clock.now().getTime() / 1000) {
      throw new DomainError('UNAUTHORIZED', 'The inbox session has expired: start a new session');
    }
    return {
      environmentId: claims.env,
      organizationId: claims.org,
      subscriberRowId: claims.sub,
      subscriberId: claims.sid,
      generation: claims.gen,
      hashProven: claims.hmac,
      ...(claims.pk === undefined ? {} : { proofKeyId: claims.pk }),
      contextKeys: claims.ctx ?? [],
    };
  }

  private sign(unsigned: string): string {
    return createHmac('sha256', this.key).update(unsigned).digest('base64url');
  }
}

function invalid(): DomainError {
  return new DomainError('UNAUTHORIZED', 'Invalid inbox session token');
}

function parseClaims(encoded: string): TokenClaims | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const claims = value as Record<string, unknown>;
  const strings = ['sub', 'sid', 'env', 'org'].every((name) => typeof claims[name] === 'string');
  const numbers = ['iat', 'exp', 'gen'].every((name) => typeof claims[name] === 'number');
  // Tokens from before generations and hash proofs were claimed fail here: their clients start a new session.
  const contextKeys =
    claims.ctx === undefined ||
    (Array.isArray(claims.ctx) && claims.ctx.every((key: unknown) => typeof key === 'string'));
  const proofKey = claims.pk === undefined || typeof claims.pk === 'string';
  return strings && numbers && contextKeys && proofKey && typeof claims.hmac === 'boolean' && claims.aud === AUDIENCE
    ? (claims as unknown as TokenClaims)
    : undefined;
}
