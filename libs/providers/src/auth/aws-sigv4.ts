import { createHash, createHmac } from 'node:crypto';

export interface AwsSigningInput {
  method: string;
  url: URL;
  /** Headers to sign besides host and x-amz-date (names in any case). */
  headers: Record<string, string>;
  body: string;
  service: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  now: Date;
}

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
/** RFC 3986 encoding, as SigV4 requires (encodeURIComponent leaves !'()* alone). */
const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * AWS Signature Version 4 (header form): returns the headers to send — the given ones plus
 * x-amz-date and authorization. Host is signed but left out of the result: fetch sets it from the URL.
 */
export function signAwsRequest(input: AwsSigningInput): Record<string, string> {
  const amzDate = input.now.toISOString().replace(/[:-]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  headers.host = input.url.host;
  headers['x-amz-date'] = amzDate;
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((name) => `${name}:${headers[name].trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalPath =
    input.url.pathname
      .split('/')
      .map((segment) => encode(decodeURIComponent(segment)))
      .join('/') || '/';
  const canonicalQuery = [...input.url.searchParams.entries()]
    .map(([key, value]) => [encode(key), encode(value)])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalRequest = [
    input.method,
    canonicalPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    sha256(input.body),
  ].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, day), input.region), input.service),
    'aws4_request',
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  delete headers.host;
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

/** The access key id is `accessKey`, or `apiKey` as Novu's SES/SNS integrations store it. */
export function awsKeys(credentials: Record<string, unknown>): {
  accessKeyId?: string;
  secretAccessKey?: string;
  region?: string;
} {
  const pick = (key: string) =>
    typeof credentials[key] === 'string' && (credentials[key] as string).trim()
      ? (credentials[key] as string).trim()
      : undefined;
  return {
    accessKeyId: pick('accessKey') ?? pick('apiKey'),
    secretAccessKey: pick('secretKey'),
    region: pick('region'),
  };
}
