import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits: a session cookie's value or a setup link's token. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a token: its sha256 (a leaked table opens nothing). */
export function secretTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The CSRF token of a session, derived from its cookie's token: the server recomputes it, so it needs
 * no storage, and it reveals nothing of the cookie (a preimage of sha256).
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
