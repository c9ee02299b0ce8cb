import { randomBytes } from 'node:crypto';

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** How long the previous secret keeps signing beside the new one after a rotation. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
