import aws4 from 'aws4';
import { optional } from '../http/credentials.js';
import type { ProviderCredentials } from '../provider.js';

export interface AwsKeys {
  accessKeyId: string;
  secretAccessKey: string;
  /** Present with temporary credentials (STS, an assumed role); sent as X-Amz-Security-Token. */
  sessionToken?: string;
}

export interface AwsSigningInput {
  url: URL;
  service: string;
  region: string;
  keys: AwsKeys;
  method?: 'GET' | 'POST';
  contentType: string;
  body: string;
  /** The signing time as `YYYYMMDDTHHMMSSZ`; now when left out. */
  amzDate?: string;
}

/**
 * AWS Signature Version 4 in the Authorization header: the headers to send (content-type, x-amz-date,
 * x-amz-security-token with temporary credentials, authorization). Host and Content-Length are not
 * in the result: fetch sets both itself from the URL and the body. Content-Length is not signed either,
 * as the payload hash already covers the body.
 */
export function signAwsRequest(input: AwsSigningInput): Record<string, string> {
  // extraHeadersToIgnore is in aws4's documentation but missing from its type definitions.
  const request: aws4.Request & { extraHeadersToIgnore: Record<string, boolean> } = {
    method: input.method ?? 'POST',
    host: input.url.host,
    path: `${input.url.pathname}${input.url.search}`,
    service: input.service,
    region: input.region,
    body: input.body,
    headers: {
      'content-type': input.contentType,
      ...(input.amzDate ? { 'x-amz-date': input.amzDate } : {}),
    },
    extraHeadersToIgnore: { 'content-length': true },
  };
  const signed = aws4.sign(request, input.keys);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers ?? {}))
    if (value !== undefined) headers[name.toLowerCase()] = String(value);
  delete headers.host;
  delete headers['content-length'];
  return headers;
}

/** AWS error codes that mean "slow down" or "try later", whatever the HTTP status says. */
export const AWS_RETRYABLE_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'TooManyRequestsException',
  'RequestThrottled',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalError',
  'InternalFailure',
]);

/**
 * The signing keys and region of an SES or SNS integration: the access key id is `accessKey`, or
 * `apiKey` as Novu's integrations store it; `sessionToken` only with temporary credentials.
 */
export function awsCredentials(credentials: ProviderCredentials): { keys?: AwsKeys; region?: string } {
  const accessKeyId = optional(credentials, 'accessKey') ?? optional(credentials, 'apiKey');
  const secretAccessKey = optional(credentials, 'secretKey');
  const sessionToken = optional(credentials, 'sessionToken');
  const region = optional(credentials, 'region');
  if (!accessKeyId || !secretAccessKey) return { region };
  return { keys: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }, region };
}

/** Every value of the keys, for redaction from error texts. */
export const awsSecrets = (keys: AwsKeys): string[] =>
  [keys.accessKeyId, keys.secretAccessKey, keys.sessionToken].filter((value) => value !== undefined);
