import { DomainError, type FieldErrors } from '#common';
import { credentialFormatErrors } from '#providers';

/**
 * 422 naming `credentials.<field>` when a credential that becomes part of the provider's API host
 * (an AWS `region`, a Pusher Beams `instanceId`) breaks its format; the provider checks it again.
 */
export function checkCredentialFormats(providerId: string, credentials: object | undefined): void {
  const given = { ...credentials } as Record<string, unknown>;
  const errors = Object.entries(credentialFormatErrors(providerId, given));
  if (errors.length === 0) return;
  const fields: FieldErrors = Object.fromEntries(
    errors.map(([field, message]) => [`credentials.${field}`, { messages: [message], value: given[field] }]),
  );
  throw new DomainError('VALIDATION_FAILED', errors[0][1], fields);
}
