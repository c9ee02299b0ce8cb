import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { AdjustableClock, DomainError, loadConfig } from '#common';
import { SESSION_TOKEN_TTL_SECONDS, SessionTokens, type InboxSession } from './session-token.js';

const session: InboxSession = {
  environmentId: '0190a1b2-0000-7000-8000-000000000001',
  organizationId: '0190a1b2-0000-7000-8000-000000000002',
  subscriberRowId: '0190a1b2-0000-7000-8000-000000000003',
  subscriberId: 'user-1',
  generation: 2,
  hashProven: false,
  contextKeys: [],
};

function tokens(key = 'a'.repeat(64), clock = new AdjustableClock()): SessionTokens {
  return new SessionTokens(loadConfig({ ENCRYPTION_KEY: key }), clock);
}

function rejects(verify: () => unknown, message: RegExp): void {
  let error: unknown;
  try {
    verify();
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).status).toBe(401);
  expect((error as DomainError).message).toMatch(message);
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('SessionTokens', () => {
  it('verifies what it issued', () => {
    const signer = tokens();
    expect(signer.verify(signer.issue(session))).toEqual(session);
  });

  it('refuses a token signed with another key', () => {
    rejects(() => tokens().verify(tokens('b'.repeat(64)).issue(session)), /Invalid/);
  });

  it('refuses any change to the claims or the signature', () => {
    const signer = tokens();
    const [header, payload, signature] = signer.issue(session).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    for (const changed of [
      { ...claims, sid: 'user-2' },
      { ...claims, env: session.organizationId },
      { ...claims, exp: (claims.exp as number) + 3600 },
      { ...claims, gen: 3 },
      { ...claims, hmac: true },
    ]) {
      rejects(() => signer.verify(`${header}.${base64url(changed)}.${signature}`), /Invalid/);
    }
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    rejects(() => signer.verify(`${header}.${payload}.${flipped}`), /Invalid/);
  });

  it('refuses malformed tokens and other algorithms', () => {
    const signer = tokens();
    const [, payload, signature] = signer.issue(session).split('.');
    for (const token of ['', 'abc', 'a.b', 'a.b.c.d', `${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`]) {
      rejects(() => signer.verify(token), /Invalid/);
    }
    rejects(() => signer.verify(`${base64url({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`), /Invalid/);
  });

  it('refuses a correctly signed token whose claims are not a session (wrong audience, missing fields)', () => {
    const signer = tokens();
    const [header, payload] = signer.issue(session).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    // The signing key, derived the way the service derives it, so only the claims differ.
    const key = Buffer.from(
      hkdfSync('sha256', Buffer.from('a'.repeat(64), 'hex'), Buffer.alloc(0), 'inbox-session-token', 32),
    );
    const sign = (value: unknown) => {
      const unsigned = `${header}.${base64url(value)}`;
      return `${unsigned}.${createHmac('sha256', key).update(unsigned).digest('base64url')}`;
    };
    expect(signer.verify(sign(claims))).toEqual(session);
    rejects(() => signer.verify(sign({ ...claims, aud: 'api' })), /Invalid/);
    rejects(() => signer.verify(sign({ ...claims, sid: undefined })), /Invalid/);
    rejects(() => signer.verify(sign({ ...claims, exp: String(claims.exp) })), /Invalid/);
    rejects(() => signer.verify(sign([claims])), /Invalid/);
    // Issued before tokens named the row's generation and the hash proof: no way to tell they still hold.
    rejects(() => signer.verify(sign({ ...claims, gen: undefined })), /Invalid/);
    rejects(() => signer.verify(sign({ ...claims, hmac: undefined })), /Invalid/);
    rejects(() => signer.verify(sign({ ...claims, hmac: 'true' })), /Invalid/);
  });

  it('expires after the TTL, and not before', () => {
    const clock = new AdjustableClock();
    const signer = tokens('a'.repeat(64), clock);
    const token = signer.issue(session);
    clock.set(new Date(Date.now() + (SESSION_TOKEN_TTL_SECONDS - 60) * 1000));
    expect(signer.verify(token)).toEqual(session);
    clock.set(new Date(Date.now() + (SESSION_TOKEN_TTL_SECONDS + 1) * 1000));
    rejects(() => signer.verify(token), /expired/);
  });
});
