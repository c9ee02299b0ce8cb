import { isIP } from 'node:net';
import { DomainError } from '#common';
import { resolvePublicAddresses } from '#providers';

export const MAX_ENDPOINTS_PER_ENVIRONMENT = 20;
const MAX_HEADERS = 20;
const MAX_HEADER_VALUE = 1024;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Set by the service on every request: a custom value could forge or break the signature. */
const RESERVED_HEADERS = new Set([
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
]);

/**
 * An endpoint URL as saved: https (http only where internal targets are allowed), no credentials in
 * it, and not an internal IP literal. Host names are checked again at every connection (the SSRF
 * guard), since what they resolve to can change after the save.
 */
export async function checkedEndpointUrl(raw: string, allowPrivateTargets: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw DomainError.validation('url', 'url must be an absolute http(s) URL', raw);
  }
  const schemes = allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    throw DomainError.validation(
      'url',
      allowPrivateTargets
        ? 'url must be http or https'
        : 'url must be https (http needs ALLOW_PRIVATE_WEBHOOK_TARGETS)',
      raw,
    );
  if (url.username || url.password)
    throw DomainError.validation('url', 'url may not carry credentials: use a custom header', raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivateTargets && isIP(host))
    await resolvePublicAddresses(host).catch(() => {
      throw DomainError.validation('url', 'url points to an internal address', raw);
    });
  return url.toString();
}

export function checkedHeaders(headers: Record<string, unknown>): Record<string, string> {
  const entries = Object.entries(headers);
  if (entries.length > MAX_HEADERS)
    throw DomainError.validation('headers', `headers may hold at most ${MAX_HEADERS} entries`);
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) throw DomainError.validation('headers', `${name} is not a valid header name`);
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw DomainError.validation('headers', `${name} is set by the service and cannot be overridden`);
    if (typeof value !== 'string' || value.length > MAX_HEADER_VALUE || /[\r\n\0]/.test(value))
      throw DomainError.validation(
        'headers',
        `headers.${name} must be a string of at most ${MAX_HEADER_VALUE} characters without line breaks`,
      );
  }
  return headers as Record<string, string>;
}
