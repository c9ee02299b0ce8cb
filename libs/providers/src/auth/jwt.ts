import { createPrivateKey, sign } from 'node:crypto';
import { ProviderError } from '../provider.js';

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/**
 * A compact JWS. RS256 for Google service accounts, ES256 for APNs provider tokens (the signature
 * must be the raw r||s pair, hence ieee-p1363 rather than DER).
 */
export function signJwt(
  alg: 'RS256' | 'ES256',
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  privateKeyPem: string,
): string {
  let key;
  try {
    key = createPrivateKey(privateKeyPem.replace(/\\n/g, '\n'));
  } catch {
    throw new ProviderError(
      `The private key for ${alg} signing is not a valid PEM key`,
      false,
      undefined,
      'credentials',
    );
  }
  const input = `${base64url(JSON.stringify({ alg, ...header }))}.${base64url(JSON.stringify(claims))}`;
  const signature = sign('sha256', Buffer.from(input), alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key);
  return `${input}.${base64url(signature)}`;
}
