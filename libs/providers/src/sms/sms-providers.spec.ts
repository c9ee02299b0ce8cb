import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import type { SmsMessage } from '../provider.js';
import { expectedAuthorization } from '../testing/aws-signature.test.js';
import { sendOptions, startReceiver, type Receiver } from '../testing/local-receiver.test.js';
import { PlivoProvider } from './plivo.provider.js';
import { SmsWebhookProvider } from './sms-webhook.provider.js';
import { SnsProvider } from './sns.provider.js';
import { TwilioProvider } from './twilio.provider.js';
import { VonageProvider } from './vonage.provider.js';

const message: SmsMessage = { channel: 'sms', to: '+15550001111', content: 'Your code is 1234' };

describe('sms providers against a local receiver', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  const last = () => receiver.requests.at(-1)!;

  it('twilio: POST /2010-04-01/Accounts/{sid}/Messages.json, Basic sid:token, form To/From/Body', async () => {
    receiver.replies.push({ status: 201, body: { sid: 'SM123', date_created: 'Mon, 01 Jan 2024 10:00:00 +0000' } });
    const result = await new TwilioProvider().send(
      message,
      { accountSid: 'AC123', token: 'tw-token', from: '+15559990000', baseUrl: receiver.url },
      sendOptions,
    );
    expect(result).toEqual({ id: 'SM123', date: '2024-01-01T10:00:00.000Z' });
    const request = last();
    expect([request.method, request.path, request.headers.authorization]).toEqual([
      'POST',
      '/2010-04-01/Accounts/AC123/Messages.json',
      `Basic ${Buffer.from('AC123:tw-token').toString('base64')}`,
    ]);
    expect(Object.fromEntries(request.form)).toEqual({
      To: '+15550001111',
      From: '+15559990000',
      Body: 'Your code is 1234',
    });
  });

  it('vonage: POST /sms/json with api_key/api_secret; a non-zero message status is a failure', async () => {
    receiver.replies.push({ body: { 'message-count': '1', messages: [{ status: '0', 'message-id': 'vn-1' }] } });
    const credentials = { apiKey: 'vn-key', secretKey: 'vn-secret', from: 'Acme', baseUrl: receiver.url };
    const result = await new VonageProvider().send(message, credentials, sendOptions);
    expect(result.id).toBe('vn-1');
    const request = last();
    expect([request.method, request.path]).toEqual(['POST', '/sms/json']);
    expect(Object.fromEntries(request.form)).toEqual({
      api_key: 'vn-key',
      api_secret: 'vn-secret',
      from: 'Acme',
      to: '15550001111',
      text: 'Your code is 1234',
    });
    receiver.replies.push({ body: { messages: [{ status: '1', 'error-text': 'Throughput Rate Exceeded' }] } });
    await expect(new VonageProvider().send(message, credentials, sendOptions)).rejects.toMatchObject({
      retryable: true,
      message: 'Vonage refused the message (status 1): Throughput Rate Exceeded',
    });
    receiver.replies.push({ body: { messages: [{ status: '4', 'error-text': 'Bad Credentials' }] } });
    await expect(new VonageProvider('nexmo').send(message, credentials, sendOptions)).rejects.toMatchObject({
      retryable: false,
    });
  });

  it('plivo: POST /v1/Account/{authId}/Message/, Basic authId:token, JSON src/dst/text', async () => {
    receiver.replies.push({
      status: 202,
      body: { api_id: 'api-1', message: 'message(s) queued', message_uuid: ['pl-1'] },
    });
    const result = await new PlivoProvider().send(
      message,
      { accountSid: 'MAAUTHID', token: 'pl-token', from: '+15559990000', baseUrl: receiver.url },
      sendOptions,
    );
    expect(result.id).toBe('pl-1');
    const request = last();
    expect([request.method, request.path, request.headers.authorization]).toEqual([
      'POST',
      '/v1/Account/MAAUTHID/Message/',
      `Basic ${Buffer.from('MAAUTHID:pl-token').toString('base64')}`,
    ]);
    expect(request.json).toEqual({ src: '+15559990000', dst: '+15550001111', text: 'Your code is 1234' });
  });

  it('sns: signed query-API Publish with PhoneNumber and Message; XML answer', async () => {
    receiver.replies.push({
      body: '<PublishResponse><PublishResult><MessageId>sns-1</MessageId></PublishResult></PublishResponse>',
      headers: { 'content-type': 'text/xml' },
    });
    const credentials = {
      accessKey: 'AKIDSNS',
      secretKey: 'sns-secret',
      region: 'us-east-1',
      senderId: 'ACME',
      baseUrl: receiver.url,
    };
    const result = await new SnsProvider().send(message, credentials, sendOptions);
    expect(result.id).toBe('sns-1');
    const request = last();
    expect([request.method, request.path]).toEqual(['POST', '/']);
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDSNS\/\d{8}\/us-east-1\/sns\/aws4_request, /,
    );
    expect(request.headers.authorization).toBe(
      expectedAuthorization(request, 'sns', 'us-east-1', { accessKeyId: 'AKIDSNS', secretAccessKey: 'sns-secret' }),
    );
    expect(Object.fromEntries(request.form)).toMatchObject({
      Action: 'Publish',
      Version: '2010-03-31',
      PhoneNumber: '+15550001111',
      Message: 'Your code is 1234',
      'MessageAttributes.entry.1.Name': 'AWS.SNS.SMS.SenderID',
      'MessageAttributes.entry.1.Value.StringValue': 'ACME',
    });
  });

  it('sns: temporary credentials send their session token as X-Amz-Security-Token, signed', async () => {
    receiver.replies.push({
      body: '<PublishResponse><PublishResult><MessageId>sns-2</MessageId></PublishResult></PublishResponse>',
    });
    const keys = { accessKeyId: 'ASIASNS', secretAccessKey: 'sns-secret', sessionToken: 'sns-session-token' };
    const credentials = {
      apiKey: keys.accessKeyId,
      secretKey: keys.secretAccessKey,
      sessionToken: keys.sessionToken,
      region: 'us-east-1',
      baseUrl: receiver.url,
    };
    expect((await new SnsProvider().send(message, credentials, sendOptions)).id).toBe('sns-2');
    const request = last();
    expect(request.headers['x-amz-security-token']).toBe('sns-session-token');
    expect(request.headers.authorization).toBe(expectedAuthorization(request, 'sns', 'us-east-1', keys));
  });

  it('sns: a Throttling error code is retryable, InvalidParameter is not', async () => {
    const credentials = { accessKey: 'AKIDSNS', secretKey: 'sns-secret', region: 'us-east-1', baseUrl: receiver.url };
    receiver.replies.push({
      status: 400,
      body: '<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error></ErrorResponse>',
    });
    await expect(new SnsProvider().send(message, credentials, sendOptions)).rejects.toMatchObject({
      retryable: true,
      message: 'Amazon SNS answered HTTP 400: Throttling: Rate exceeded',
    });
    receiver.replies.push({
      status: 400,
      body: '<ErrorResponse><Error><Code>InvalidParameter</Code><Message>Invalid phone</Message></Error></ErrorResponse>',
    });
    await expect(new SnsProvider().send(message, credentials, sendOptions)).rejects.toMatchObject({ retryable: false });
  });

  it('sms-webhook: JSON to webhookUrl, HMAC-SHA256 signature of the send time and the body, id from idPath', async () => {
    receiver.replies.push({ body: { data: { id: 'hook-1' } } });
    const result = await new SmsWebhookProvider().send(
      message,
      { webhookUrl: `${receiver.url}/sms`, secretKey: 'hook-secret', from: 'Acme', idPath: 'data.id' },
      sendOptions,
    );
    expect(result.id).toBe('hook-1');
    const request = last();
    expect([request.method, request.path]).toEqual(['POST', '/sms']);
    expect(request.json).toMatchObject({ to: '+15550001111', from: 'Acme', content: 'Your code is 1234' });
    const timestamp = /^t=(\d+),/.exec(String(request.headers['x-novu-signature']))?.[1];
    expect(request.headers['x-novu-signature']).toBe(
      `t=${timestamp},v1=${createHmac('sha256', 'hook-secret').update(`${timestamp}.${request.body}`).digest('hex')}`,
    );
  });
});
