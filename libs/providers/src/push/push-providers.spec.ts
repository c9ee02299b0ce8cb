import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { InvalidDeviceTokenError, type PushMessage } from '../provider.js';
import { ProviderRegistry } from '../provider-registry.js';
import { failureOf } from '../testing/failure.test.js';
import { sendOptions, startReceiver, type Receiver } from '../testing/local-receiver.test.js';
import { ApnsProvider } from './apns.provider.js';
import { AppioProvider } from './appio.provider.js';
import { ExpoProvider } from './expo.provider.js';
import { FcmProvider } from './fcm.provider.js';
import { OneSignalProvider } from './one-signal.provider.js';
import { PusherBeamsProvider } from './pusher-beams.provider.js';
import { PushpadProvider } from './pushpad.provider.js';

const push: PushMessage = {
  channel: 'push',
  deviceToken: 'device-token-1',
  title: 'New message',
  content: 'Ada sent you a message',
  payload: { threadId: 't-9', unread: 3 },
  subscriberId: 'sub-1',
  transactionId: 'tx-1',
};

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5000) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function decodeJwt(jwt: string, key: KeyObject, dsaEncoding?: 'ieee-p1363') {
  const [header, claims, signature] = jwt.split('.');
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    dsaEncoding ? { key, dsaEncoding } : key,
    Buffer.from(signature, 'base64url'),
  );
  return {
    valid,
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as unknown,
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) as unknown,
  };
}

describe('push providers against a local receiver', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  const last = () => receiver.requests.at(-1)!;

  describe('fcm', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const serviceAccount = () =>
      JSON.stringify({
        type: 'service_account',
        project_id: 'acme-app',
        client_email: 'sender@acme-app.iam.gserviceaccount.com',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        token_uri: `${receiver.url}/token`,
      });

    it('mints an OAuth token from the service account (RS256 JWT), then POSTs messages:send; the token is reused', async () => {
      const adapter = new FcmProvider();
      const credentials = { serviceAccount: serviceAccount(), baseUrl: receiver.url };
      const before = receiver.requests.length;
      receiver.replies.push(
        { body: { access_token: 'ya29.access', expires_in: 3599, token_type: 'Bearer' } },
        { body: { name: 'projects/acme-app/messages/1' } },
      );
      const result = await adapter.send(push, credentials, sendOptions);
      expect(result.id).toBe('projects/acme-app/messages/1');
      const [tokenRequest, sendRequest] = receiver.requests.slice(before);
      expect([tokenRequest.method, tokenRequest.path, tokenRequest.form.get('grant_type')]).toEqual([
        'POST',
        '/token',
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
      ]);
      const assertion = decodeJwt(tokenRequest.form.get('assertion')!, publicKey);
      expect(assertion.valid).toBe(true);
      expect(assertion.header).toEqual({ alg: 'RS256', typ: 'JWT' });
      expect(assertion.claims).toMatchObject({
        iss: 'sender@acme-app.iam.gserviceaccount.com',
        aud: `${receiver.url}/token`,
        scope: 'https://www.googleapis.com/auth/firebase.messaging',
      });
      expect([sendRequest.method, sendRequest.path, sendRequest.headers.authorization]).toEqual([
        'POST',
        '/v1/projects/acme-app/messages:send',
        'Bearer ya29.access',
      ]);
      expect(sendRequest.json).toEqual({
        message: {
          token: 'device-token-1',
          notification: { title: 'New message', body: 'Ada sent you a message' },
          data: { threadId: 't-9', unread: '3' },
        },
      });
      receiver.replies.push({ body: { name: 'projects/acme-app/messages/2' } });
      await adapter.send(push, credentials, sendOptions);
      expect(receiver.requests.slice(before).map((request) => request.path)).toEqual([
        '/token',
        '/v1/projects/acme-app/messages:send',
        '/v1/projects/acme-app/messages:send',
      ]);
    });

    it('sends that miss the token cache together share one token request', async () => {
      const adapter = new FcmProvider();
      const credentials = { serviceAccount: serviceAccount(), baseUrl: receiver.url };
      const before = receiver.requests.length;
      receiver.replies.push({ body: { access_token: 'ya29.shared', expires_in: 3599 }, delayMs: 50 });
      await Promise.all([1, 2, 3, 4, 5].map(() => adapter.send(push, credentials, sendOptions)));
      const requests = receiver.requests.slice(before);
      expect(requests.filter((request) => request.path === '/token')).toHaveLength(1);
      expect(requests.filter((request) => request.headers.authorization === 'Bearer ya29.shared')).toHaveLength(5);
    });

    it('a failed token request fails the sends waiting for it; the next send asks again', async () => {
      const adapter = new FcmProvider();
      const credentials = { serviceAccount: serviceAccount(), baseUrl: receiver.url };
      const before = receiver.requests.length;
      receiver.replies.push({ status: 503, body: { error: 'unavailable' }, delayMs: 50 });
      const failures = await Promise.all([1, 2, 3].map(() => failureOf(adapter.send(push, credentials, sendOptions))));
      expect(failures).toEqual([1, 2, 3].map(() => expect.objectContaining({ retryable: true })));
      receiver.replies.push({ body: { access_token: 'ya29.again', expires_in: 3599 } });
      await adapter.send(push, credentials, sendOptions);
      expect(receiver.requests.slice(before).map((request) => request.path)).toEqual([
        '/token',
        '/token',
        '/v1/projects/acme-app/messages:send',
      ]);
    });

    it('UNREGISTERED is an invalid device token; a refused grant is not retryable and keeps the key out of the text', async () => {
      const adapter = new FcmProvider();
      const credentials = { serviceAccount: serviceAccount(), baseUrl: receiver.url };
      receiver.replies.push(
        { body: { access_token: 'ya29.other', expires_in: 3599 } },
        {
          status: 404,
          body: {
            error: {
              code: 404,
              message: 'Requested entity was not found.',
              status: 'NOT_FOUND',
              details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }],
            },
          },
        },
      );
      const dead = await failureOf(adapter.send(push, credentials, sendOptions));
      expect(dead).toBeInstanceOf(InvalidDeviceTokenError);
      expect(dead).toMatchObject({ invalidDeviceToken: true, retryable: false });
      receiver.replies.push({
        status: 400,
        body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' },
      });
      const refused = await failureOf(new FcmProvider().send(push, credentials, sendOptions));
      expect(refused).toMatchObject({
        retryable: false,
        message: 'Google OAuth token endpoint answered HTTP 400: Invalid JWT Signature.',
      });
      expect(`${refused.message}${refused.raw}`).not.toContain('PRIVATE KEY');
    });
  });

  describe('apns (HTTP/2)', () => {
    let apns: Receiver;
    let adapter: ApnsProvider;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentials = () => ({
      secretKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      apiKey: 'KEYID1234',
      projectName: 'TEAMID1234',
      applicationId: 'com.acme.app',
      baseUrl: apns.url,
    });
    beforeAll(async () => {
      apns = await startReceiver({ status: 200, body: '' }, true);
      adapter = new ApnsProvider();
    });
    afterAll(async () => {
      await adapter.close();
      await apns.close();
    });

    it('POST /3/device/{token} with an ES256 provider token, apns-topic and the aps alert', async () => {
      apns.replies.push({ status: 200, body: '', headers: { 'apns-id': 'apns-uuid-1' } });
      const result = await adapter.send(push, credentials(), sendOptions);
      expect(result.id).toBe('apns-uuid-1');
      const request = apns.requests.at(-1)!;
      expect([request.method, request.path, request.headers['apns-topic'], request.headers['apns-push-type']]).toEqual([
        'POST',
        '/3/device/device-token-1',
        'com.acme.app',
        'alert',
      ]);
      const token = decodeJwt(
        (request.headers.authorization as string).replace(/^bearer /, ''),
        publicKey,
        'ieee-p1363',
      );
      expect(token.valid).toBe(true);
      expect(token.header).toEqual({ alg: 'ES256', kid: 'KEYID1234' });
      expect(token.claims).toMatchObject({ iss: 'TEAMID1234' });
      expect(request.json).toEqual({
        threadId: 't-9',
        unread: 3,
        aps: { alert: { title: 'New message', body: 'Ada sent you a message' } },
      });
    });

    it('410 Unregistered and BadDeviceToken are invalid tokens; 429 is retryable; 400 other reasons are not', async () => {
      apns.replies.push(
        { status: 410, body: { reason: 'Unregistered', timestamp: 1700000000000 } },
        { status: 400, body: { reason: 'BadDeviceToken' } },
      );
      await expect(adapter.send(push, credentials(), sendOptions)).rejects.toBeInstanceOf(InvalidDeviceTokenError);
      await expect(adapter.send(push, credentials(), sendOptions)).rejects.toMatchObject({
        invalidDeviceToken: true,
      });
      apns.replies.push(
        { status: 429, body: { reason: 'TooManyRequests' } },
        { status: 400, body: { reason: 'PayloadTooLarge' } },
      );
      await expect(adapter.send(push, credentials(), sendOptions)).rejects.toMatchObject({
        retryable: true,
        message: 'APNs answered HTTP 429: TooManyRequests',
      });
      await expect(adapter.send(push, credentials(), sendOptions)).rejects.toMatchObject({
        retryable: false,
      });
    });

    it('500 and a refused connection are retryable; the key and provider token stay out of the texts', async () => {
      apns.replies.push({ status: 500, body: { reason: 'InternalServerError' } });
      const failed = await failureOf(adapter.send(push, credentials(), sendOptions));
      expect(failed).toMatchObject({ retryable: true, message: 'APNs answered HTTP 500: InternalServerError' });
      const refused = await failureOf(
        adapter.send(push, { ...credentials(), baseUrl: 'http://127.0.0.1:1' }, sendOptions),
      );
      expect(refused).toMatchObject({ retryable: true, message: expect.stringMatching(/^APNs request failed/) });
      for (const error of [failed, refused])
        expect(`${error.message}${error.raw ?? ''}`).not.toMatch(/PRIVATE KEY|eyJ/);
    });

    it('pushes share one HTTP/2 session, also when sent together', async () => {
      const own = new ApnsProvider();
      const before = apns.connections;
      await own.send(push, credentials(), sendOptions);
      await Promise.all([1, 2, 3].map(() => own.send(push, credentials(), sendOptions)));
      expect(apns.connections - before).toBe(1);
      await own.close();
    });

    it('another key gets its own session', async () => {
      await adapter.send(push, credentials(), sendOptions);
      const before = apns.connections;
      await adapter.send(push, { ...credentials(), apiKey: 'KEYID5678' }, sendOptions);
      await adapter.send(push, credentials(), sendOptions);
      expect(apns.connections - before).toBe(1);
    });

    it('after the server sends GOAWAY the next push connects again, also one sent before the client saw it', async () => {
      await adapter.send(push, credentials(), sendOptions);
      const before = apns.connections;
      apns.goAway();
      apns.replies.push({ status: 200, body: '', headers: { 'apns-id': 'after-goaway' } });
      expect((await adapter.send(push, credentials(), sendOptions)).id).toBe('after-goaway');
      expect(apns.connections - before).toBe(1);
    });

    it('close() ends the open sessions; a later push connects again', async () => {
      const own = new ApnsProvider();
      await own.send(push, credentials(), sendOptions);
      const open = apns.openSessions();
      await own.close();
      await waitUntil(() => apns.openSessions() === open - 1);
      const before = apns.connections;
      await own.send(push, credentials(), sendOptions);
      expect(apns.connections - before).toBe(1);
      await own.close();
    });

    it('module shutdown (the registry) closes the APNs sessions', async () => {
      const server = await startReceiver({ status: 200, body: '' }, true);
      const registry = new ProviderRegistry();
      await registry.get('apns')!.send(push, { ...credentials(), baseUrl: server.url }, sendOptions);
      expect(server.openSessions()).toBe(1);
      await registry.onModuleDestroy();
      await waitUntil(() => server.openSessions() === 0);
      await server.close();
    });

    it('an answer of 1 GB fails the call after its first MB, the rest is never read', async () => {
      const before = apns.streamedBytes;
      apns.replies.push({ status: 200, streamBytes: 1024 ** 3 });
      const error = await failureOf(adapter.send(push, credentials(), { ...sendOptions, timeoutMs: 30_000 }));
      expect(error).toMatchObject({
        name: 'ProviderError',
        retryable: false,
        message: 'APNs answered HTTP 200 with a body larger than 1 MB; the call counts as failed',
      });
      expect(apns.streamedBytes - before).toBeLessThan(16 * 1024 ** 2);
    });
  });

  it('expo: POST /--/api/v2/push/send with {to, title, body, data}; DeviceNotRegistered ticket is an invalid token', async () => {
    receiver.replies.push({ body: { data: { status: 'ok', id: 'ticket-1' } } });
    const result = await new ExpoProvider().send(
      { ...push, deviceToken: 'ExponentPushToken[abc]' },
      { apiKey: 'expo-access', baseUrl: receiver.url },
      sendOptions,
    );
    expect(result.id).toBe('ticket-1');
    expect([last().method, last().path, last().headers.authorization]).toEqual([
      'POST',
      '/--/api/v2/push/send',
      'Bearer expo-access',
    ]);
    expect(last().json).toEqual({
      to: 'ExponentPushToken[abc]',
      title: 'New message',
      body: 'Ada sent you a message',
      data: { threadId: 't-9', unread: 3 },
    });
    receiver.replies.push({
      body: {
        data: {
          status: 'error',
          message: '"ExponentPushToken[abc]" is not a registered push notification recipient',
          details: { error: 'DeviceNotRegistered' },
        },
      },
    });
    await expect(new ExpoProvider().send(push, { baseUrl: receiver.url }, sendOptions)).rejects.toBeInstanceOf(
      InvalidDeviceTokenError,
    );
    receiver.replies.push({
      body: { data: { status: 'error', message: 'Too many', details: { error: 'MessageRateExceeded' } } },
    });
    await expect(new ExpoProvider().send(push, { baseUrl: receiver.url }, sendOptions)).rejects.toMatchObject({
      retryable: true,
    });
  });

  it('one-signal: POST /notifications with Key auth, app_id, subscription id, headings and contents', async () => {
    receiver.replies.push({ body: { id: 'os-1' } });
    const credentials = { apiKey: 'os-rest-key', applicationId: 'app-uuid', baseUrl: receiver.url };
    const result = await new OneSignalProvider().send(push, credentials, sendOptions);
    expect(result.id).toBe('os-1');
    expect([last().method, last().path, last().headers.authorization]).toEqual([
      'POST',
      '/notifications',
      'Key os-rest-key',
    ]);
    expect(last().json).toEqual({
      app_id: 'app-uuid',
      target_channel: 'push',
      include_subscription_ids: ['device-token-1'],
      headings: { en: 'New message' },
      contents: { en: 'Ada sent you a message' },
      data: { threadId: 't-9', unread: 3 },
    });
    receiver.replies.push({ body: { id: '', errors: { invalid_player_ids: ['device-token-1'] } } });
    await expect(new OneSignalProvider().send(push, credentials, sendOptions)).rejects.toBeInstanceOf(
      InvalidDeviceTokenError,
    );
  });

  it('pushpad: POST /api/v1/projects/{id}/notifications with Token auth and uids; scheduled 0 is an invalid token', async () => {
    receiver.replies.push({ status: 201, body: { id: 123, scheduled: 1 } });
    const credentials = { apiKey: 'pp-token', applicationId: '42', baseUrl: receiver.url };
    const result = await new PushpadProvider().send(push, credentials, sendOptions);
    expect(result.id).toBe('123');
    expect([last().method, last().path, last().headers.authorization]).toEqual([
      'POST',
      '/api/v1/projects/42/notifications',
      'Token token="pp-token"',
    ]);
    expect(last().json).toEqual({
      notification: { title: 'New message', body: 'Ada sent you a message' },
      uids: ['device-token-1'],
    });
    receiver.replies.push({ status: 201, body: { id: 124, scheduled: 0 } });
    await expect(new PushpadProvider().send(push, credentials, sendOptions)).rejects.toBeInstanceOf(
      InvalidDeviceTokenError,
    );
  });

  it('pusher-beams: POST /publish_api/v1/instances/{id}/publishes/users with Bearer secret', async () => {
    receiver.replies.push({ body: { publishId: 'pubid-1' } });
    const result = await new PusherBeamsProvider().send(
      push,
      { instanceId: 'inst-1', secretKey: 'beams-secret', baseUrl: receiver.url },
      sendOptions,
    );
    expect(result.id).toBe('pubid-1');
    expect([last().method, last().path, last().headers.authorization]).toEqual([
      'POST',
      '/publish_api/v1/instances/inst-1/publishes/users',
      'Bearer beams-secret',
    ]);
    const notification = { title: 'New message', body: 'Ada sent you a message' };
    expect(last().json).toEqual({
      users: ['device-token-1'],
      apns: { aps: { alert: notification }, data: { threadId: 't-9', unread: 3 } },
      fcm: { notification, data: { threadId: 't-9', unread: '3' } },
      web: { notification, data: { threadId: 't-9', unread: 3 } },
    });
  });

  it('appio: profile check then POST /messages with the subscription key; unknown fiscal code is an invalid token', async () => {
    const fiscal = { ...push, deviceToken: 'RSSMRA80A01H501U' };
    const credentials = { apiKey: 'io-key', baseUrl: receiver.url };
    const before = receiver.requests.length;
    receiver.replies.push({ body: { sender_allowed: true } }, { status: 201, body: { id: 'io-msg-1' } });
    const result = await new AppioProvider().send(fiscal, credentials, sendOptions);
    expect(result.id).toBe('io-msg-1');
    const [profile, sent] = receiver.requests.slice(before);
    expect([profile.method, profile.path, profile.headers['ocp-apim-subscription-key'], profile.json]).toEqual([
      'POST',
      '/profiles',
      'io-key',
      { fiscal_code: 'RSSMRA80A01H501U' },
    ]);
    expect([sent.method, sent.path, sent.headers['ocp-apim-subscription-key']]).toEqual([
      'POST',
      '/messages',
      'io-key',
    ]);
    expect(sent.json).toEqual({
      fiscal_code: 'RSSMRA80A01H501U',
      content: { subject: 'New message', markdown: 'Ada sent you a message' },
    });
    receiver.replies.push({ status: 404, body: { title: 'Profile not found' } });
    await expect(new AppioProvider().send(fiscal, credentials, sendOptions)).rejects.toBeInstanceOf(
      InvalidDeviceTokenError,
    );
    receiver.replies.push({ body: { sender_allowed: false } });
    const refused = await failureOf(new AppioProvider().send(fiscal, credentials, sendOptions));
    expect(refused).not.toBeInstanceOf(InvalidDeviceTokenError);
    expect(refused).toMatchObject({
      retryable: false,
      message: 'App IO: the citizen does not accept messages from this service',
    });
  });
});
