import { ProviderError, type ProviderCredentials } from '../provider.js';

/** AWS region names: `us-east-1`, `eu-central-2`, `us-gov-west-1`, `ap-southeast-5`. */
export const AWS_REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

/** One DNS label: letters, digits and inner dashes (Pusher Beams instance ids are UUIDs). */
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

interface CredentialFormat {
  pattern: RegExp;
  message: string;
}

const AWS_REGION_FORMAT: CredentialFormat = {
  pattern: AWS_REGION,
  message: 'region must be an AWS region such as us-east-1',
};

/**
 * Credentials that become part of a provider's API host name, by providerId. They are checked when
 * the integration is saved (a 422 naming `credentials.<field>`) and again by the provider before it
 * builds the URL: a value such as `evil.test:8443/#` must never choose where a signed request goes.
 */
const HOST_CREDENTIAL_FORMATS: Readonly<Record<string, Readonly<Record<string, CredentialFormat>>>> = {
  ses: { region: AWS_REGION_FORMAT },
  sns: { region: AWS_REGION_FORMAT },
  'pusher-beams': {
    instanceId: {
      pattern: HOST_LABEL,
      message: 'instanceId must be a Pusher Beams instance id (letters, digits and dashes)',
    },
  },
};

const present = (value: unknown) =>
  !(value === undefined || value === null || (typeof value === 'string' && value.trim() === ''));
const matches = (value: unknown, format: CredentialFormat) =>
  typeof value === 'string' && format.pattern.test(value.trim());

/** Field → message for every credential of `providerId` that is given but breaks its host format. */
export function credentialFormatErrors(providerId: string, credentials: ProviderCredentials): Record<string, string> {
  const formats = Object.entries(HOST_CREDENTIAL_FORMATS[providerId] ?? {});
  return Object.fromEntries(
    formats
      .filter(([field, format]) => present(credentials[field]) && !matches(credentials[field], format))
      .map(([field, format]) => [field, format.message]),
  );
}

/** Throws the configuration error a provider reports when a host credential breaks its format (checked before any URL is built). */
export function assertHostCredentials(providerId: string, credentials: ProviderCredentials): void {
  const errors = Object.values(credentialFormatErrors(providerId, credentials));
  if (errors.length > 0)
    throw new ProviderError(`The ${providerId} integration's ${errors.join('; ')}`, false, undefined, 'credentials');
}
