import aws4 from 'aws4';
import type { AwsKeys } from '../auth/aws-sigv4.js';
import type { Received } from './local-receiver.test.js';

/**
 * The Authorization header AWS would compute for a received request: the headers it names in
 * SignedHeaders, as they arrived, signed again with aws4 at the request's x-amz-date.
 */
export function expectedAuthorization(request: Received, service: string, region: string, keys: AwsKeys): string {
  const names = /SignedHeaders=([^,]+)/.exec(String(request.headers.authorization))?.[1].split(';') ?? [];
  const headers = Object.fromEntries(names.map((name) => [name, String(request.headers[name])]));
  const toSign: aws4.Request & { extraHeadersToIgnore: Record<string, boolean> } = {
    method: request.method,
    host: headers.host,
    path: request.path,
    service,
    region,
    body: request.body,
    headers,
    extraHeadersToIgnore: { 'content-length': !names.includes('content-length') },
  };
  return String(aws4.sign(toSign, keys).headers?.Authorization);
}
