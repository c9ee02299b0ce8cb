import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

export const PASSWORD_MIN_LENGTH = 12;
/** Hashing cost grows with the input: a bound keeps a login from being a CPU lever. */
export const PASSWORD_MAX_LENGTH = 256;

/**
 * Argon2id with the library's defaults: 19 MiB, 2 passes, 1 lane (OWASP's recommended minimum,
 * about 30 ms here). The PHC string carries them, so a later change of cost still verifies old hashes.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}

/** A password for a user made without one (the CLI): shown once, to be changed. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
