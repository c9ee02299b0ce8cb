import { describe, expect, it } from '@jest/globals';
import { awsCredentials, signAwsRequest } from './aws-sigv4.js';

const example = {
  method: 'GET',
  url: new URL('https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08'),
  service: 'iam',
  region: 'us-east-1',
  contentType: 'application/x-www-form-urlencoded; charset=utf-8',
  body: '',
  amzDate: '20150830T123600Z',
} as const;

describe('signAwsRequest', () => {
  it('reproduces the signature of the AWS documentation example (IAM ListUsers)', () => {
    const headers = signAwsRequest({
      ...example,
      keys: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
    });
    expect(headers).toEqual({
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      'x-amz-date': '20150830T123600Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, ' +
        'Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
    });
  });

  it('sends and signs the session token of temporary credentials', () => {
    const headers = signAwsRequest({
      ...example,
      keys: { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session-token-1' },
    });
    expect(headers['x-amz-security-token']).toBe('session-token-1');
    expect(headers.authorization).toContain('SignedHeaders=content-type;host;x-amz-date;x-amz-security-token,');
  });

  it('does not sign Content-Length and leaves Host and Content-Length for fetch to set', () => {
    const headers = signAwsRequest({
      ...example,
      method: 'POST',
      body: 'Action=Publish',
      keys: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    });
    expect(Object.keys(headers).sort()).toEqual(['authorization', 'content-type', 'x-amz-date']);
    expect(headers.authorization).toContain('SignedHeaders=content-type;host;x-amz-date,');
  });
});

describe('awsCredentials', () => {
  it('reads accessKey or apiKey, secretKey, an optional sessionToken and the region', () => {
    expect(awsCredentials({ apiKey: ' AKID ', secretKey: 's', region: 'eu-west-1' })).toEqual({
      keys: { accessKeyId: 'AKID', secretAccessKey: 's' },
      region: 'eu-west-1',
    });
    expect(awsCredentials({ accessKey: 'ASIA', secretKey: 's', sessionToken: 't', region: 'us-east-1' })).toEqual({
      keys: { accessKeyId: 'ASIA', secretAccessKey: 's', sessionToken: 't' },
      region: 'us-east-1',
    });
  });

  it('has no keys without both the access key id and the secret key', () => {
    expect(awsCredentials({ accessKey: 'AKID', region: 'us-east-1' })).toEqual({ region: 'us-east-1' });
  });
});
