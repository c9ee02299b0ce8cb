import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { detailsOf, messagesOf, triggerWithKeyAndSettle } from './support/engine-fixtures.js';
import {
  startProviderReceiver,
  startSmtpReceiver,
  type ProviderReceiver,
  type ProviderRequest,
  type ReceivedMail,
} from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Every provider, end to end: an integration created through the API with its baseUrl on a local
 * receiver, a workflow triggered through the API, and the request the receiver got.
 */

const SUBJECT = 'Order A-17';
const CONTENT = 'Hi Ada, order A-17 shipped';
const EMAIL = 'ada@example.com';
const PHONE = '+15550001111';
const TOKEN = 'device-token-0001';

type Channel = 'email' | 'sms' | 'chat' | 'push';

interface Servers {
  http: ProviderReceiver;
  h2: ProviderReceiver;
  smtp: { port: number; mails: ReceivedMail[] };
}

interface Row {
  providerId: string;
  channel: Channel;
  /** Integration credentials (secrets hold `secret` so the test can look for leaks). */
  credentials: (s: Servers) => Record<string, unknown>;
  /** The subscriber's channel credentials (chat and push). */
  subscriber?: (s: Servers) => Record<string, unknown>;
  http2?: boolean;
  check: (requests: ProviderRequest[], s: Servers) => void;
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
/** x-novu-signature as docs/providers.md describes it: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">. */
const signature = (secret: string, request: ProviderRequest) => {
  const timestamp = /^t=(\d+),/.exec(String(request.headers['x-novu-signature']))?.[1];
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
};
const only = (requests: ProviderRequest[]) => {
  expect(requests).toHaveLength(1);
  return requests[0];
};
const fcmKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
}) as string;
const apnsKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
}) as string;

/** Success answers in each provider's shape, by path. */
function answer(request: ProviderRequest) {
  const path = request.path;
  if (path === '/token') return { body: { access_token: 'ya29.e2e-access', expires_in: 3599, token_type: 'Bearer' } };
  if (path === '/sms/json')
    return { body: { 'message-count': '1', messages: [{ status: '0', 'message-id': 'vn-1' }] } };
  if (path === '/')
    return {
      body: '<PublishResponse><PublishResult><MessageId>sns-1</MessageId></PublishResult></PublishResponse>',
      headers: { 'content-type': 'text/xml' },
    };
  if (path === '/email')
    return { body: { MessageID: 'pm-1', ErrorCode: 0, Message: 'OK', SubmittedAt: '2024-01-01T00:00:00Z' } };
  if (path === '/--/api/v2/push/send') return { body: { data: { status: 'ok', id: 'ticket-1' } } };
  if (path === '/notifications') return { body: { id: 'os-1' } };
  if (path.startsWith('/api/v1/projects/')) return { status: 201, body: { id: 7, scheduled: 1 } };
  if (path === '/profiles') return { body: { sender_allowed: true } };
  if (path === '/messages') return { status: 201, body: { id: 'io-1' } };
  if (path === '/1055/messages') return { body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.1' }] } };
  if (path === '/api/v1/chat.sendMessage')
    return { body: { success: true, message: { _id: 'rc-1', ts: '2024-01-01T00:00:00.000Z' } } };
  return undefined;
}

const chatText = (field: string) => (requests: ProviderRequest[]) =>
  expect(only(requests).json).toEqual({ [field]: CONTENT });

const ROWS: Row[] = [
  {
    providerId: 'nodemailer',
    channel: 'email',
    credentials: (s) => ({
      host: '127.0.0.1',
      port: String(s.smtp.port),
      secure: false,
      ignoreTls: true,
      from: 'no-reply@acme.test',
      senderName: 'Acme',
    }),
    check: (requests, s) => {
      expect(requests).toHaveLength(0);
      const mail = s.smtp.mails.at(-1)!;
      expect(mail).toMatchObject({ from: 'no-reply@acme.test', to: [EMAIL] });
      expect(mail.raw).toContain('From: Acme <no-reply@acme.test>');
      expect(mail.raw).toContain(`Subject: ${SUBJECT}`);
      expect(mail.raw).toContain(CONTENT);
    },
  },
  {
    providerId: 'sendgrid',
    channel: 'email',
    credentials: (s) => ({
      apiKey: 'SG.secret-sendgrid',
      from: 'no-reply@acme.test',
      senderName: 'Acme',
      baseUrl: s.http.url,
    }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/v3/mail/send',
        'Bearer SG.secret-sendgrid',
      ]);
      expect(request.json).toMatchObject({ personalizations: [{ to: [{ email: EMAIL }] }], subject: SUBJECT });
      expect(request.json.content.map((part: { value: string }) => part.value)).toEqual([CONTENT, `<p>${CONTENT}</p>`]);
    },
  },
  {
    providerId: 'mailgun',
    channel: 'email',
    credentials: (s) => ({
      apiKey: 'key-secret-mailgun',
      domain: 'mg.acme.test',
      from: 'no-reply@acme.test',
      baseUrl: s.http.url,
    }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/v3/mg.acme.test/messages',
        basic('api', 'key-secret-mailgun'),
      ]);
      expect(Object.fromEntries(request.form)).toMatchObject({
        to: EMAIL,
        subject: SUBJECT,
        html: `<p>${CONTENT}</p>`,
      });
    },
  },
  {
    providerId: 'postmark',
    channel: 'email',
    credentials: (s) => ({ apiKey: 'pm-secret-token', from: 'no-reply@acme.test', baseUrl: s.http.url }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers['x-postmark-server-token']]).toEqual([
        'POST',
        '/email',
        'pm-secret-token',
      ]);
      expect(request.json).toMatchObject({ To: EMAIL, Subject: SUBJECT, HtmlBody: `<p>${CONTENT}</p>` });
    },
  },
  {
    providerId: 'resend',
    channel: 'email',
    credentials: (s) => ({ apiKey: 're_secret_resend', from: 'no-reply@acme.test', baseUrl: s.http.url }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/emails',
        'Bearer re_secret_resend',
      ]);
      expect(request.json).toMatchObject({ to: [EMAIL], subject: SUBJECT, html: `<p>${CONTENT}</p>` });
    },
  },
  {
    providerId: 'ses',
    channel: 'email',
    credentials: (s) => ({
      accessKey: 'AKIDSES',
      secretKey: 'ses-secret-key',
      region: 'eu-west-1',
      from: 'no-reply@acme.test',
      baseUrl: s.http.url,
    }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path]).toEqual(['POST', '/v2/email/outbound-emails']);
      expect(request.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDSES\/\d{8}\/eu-west-1\/ses\/aws4_request, /,
      );
      expect(request.json).toMatchObject({
        Destination: { ToAddresses: [EMAIL] },
        Content: { Simple: { Subject: { Data: SUBJECT }, Body: { Html: { Data: `<p>${CONTENT}</p>` } } } },
      });
    },
  },
  {
    providerId: 'twilio',
    channel: 'sms',
    credentials: (s) => ({ accountSid: 'AC123', token: 'tw-secret-token', from: '+15559990000', baseUrl: s.http.url }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/2010-04-01/Accounts/AC123/Messages.json',
        basic('AC123', 'tw-secret-token'),
      ]);
      expect(Object.fromEntries(request.form)).toEqual({ To: PHONE, From: '+15559990000', Body: CONTENT });
    },
  },
  {
    providerId: 'vonage',
    channel: 'sms',
    credentials: (s) => ({ apiKey: 'vn-key', secretKey: 'vn-secret-key', from: 'Acme', baseUrl: s.http.url }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path]).toEqual(['POST', '/sms/json']);
      // Vonage authenticates in the form, not a header.
      expect(Object.fromEntries(request.form)).toEqual({
        api_key: 'vn-key',
        api_secret: 'vn-secret-key',
        from: 'Acme',
        to: PHONE.slice(1),
        text: CONTENT,
      });
    },
  },
  {
    providerId: 'plivo',
    channel: 'sms',
    credentials: (s) => ({
      accountSid: 'MAAUTHID',
      token: 'pl-secret-token',
      from: '+15559990000',
      baseUrl: s.http.url,
    }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/v1/Account/MAAUTHID/Message/',
        basic('MAAUTHID', 'pl-secret-token'),
      ]);
      expect(request.json).toEqual({ src: '+15559990000', dst: PHONE, text: CONTENT });
    },
  },
  {
    providerId: 'sns',
    channel: 'sms',
    credentials: (s) => ({
      accessKey: 'AKIDSNS',
      secretKey: 'sns-secret-key',
      // Temporary credentials: the token travels as X-Amz-Security-Token, signed.
      sessionToken: 'sns-secret-session-token',
      region: 'us-east-1',
      baseUrl: s.http.url,
    }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path]).toEqual(['POST', '/']);
      expect(request.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDSNS\/\d{8}\/us-east-1\/sns\/aws4_request, SignedHeaders=[^,]*;x-amz-security-token, /,
      );
      expect(request.headers['x-amz-security-token']).toBe('sns-secret-session-token');
      expect(Object.fromEntries(request.form)).toMatchObject({
        Action: 'Publish',
        PhoneNumber: PHONE,
        Message: CONTENT,
      });
    },
  },
  {
    providerId: 'sms-webhook',
    channel: 'sms',
    credentials: (s) => ({ webhookUrl: `${s.http.url}/sms-hook`, secretKey: 'sms-hook-secret', from: 'Acme' }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path]).toEqual(['POST', '/sms-hook']);
      expect(request.headers['x-novu-signature']).toBe(signature('sms-hook-secret', request));
      expect(request.json).toMatchObject({ to: PHONE, from: 'Acme', content: CONTENT });
    },
  },
  ...(['slack', 'service-slack'] as const).map((providerId): Row => ({
    providerId,
    channel: 'chat',
    credentials: () => ({}),
    subscriber: (s) => ({ webhookUrl: `${s.http.url}/services/T1/B1/${providerId}-secret` }),
    check: (requests) => {
      expect([only(requests).method, only(requests).path]).toEqual(['POST', `/services/T1/B1/${providerId}-secret`]);
      chatText('text')(requests);
    },
  })),
  {
    providerId: 'discord',
    channel: 'chat',
    credentials: () => ({}),
    subscriber: (s) => ({ webhookUrl: `${s.http.url}/api/webhooks/1/discord-secret` }),
    check: (requests) => {
      expect([only(requests).method, only(requests).path]).toEqual([
        'POST',
        '/api/webhooks/1/discord-secret?wait=true',
      ]);
      chatText('content')(requests);
    },
  },
  ...(
    [
      ['msteams', '/webhookb2/teams-secret', 'text'],
      ['ryver', '/application/webhook/ryver-secret', 'body'],
      ['zulip', '/api/v1/external/slack_incoming?api_key=zulip-secret&stream=ops', 'text'],
    ] as const
  ).map(([providerId, path, field]): Row => ({
    providerId,
    channel: 'chat',
    credentials: () => ({}),
    subscriber: (s) => ({ webhookUrl: `${s.http.url}${path}` }),
    check: (requests) => {
      expect([only(requests).method, only(requests).path]).toEqual(['POST', path]);
      chatText(field)(requests);
    },
  })),
  {
    providerId: 'mattermost',
    channel: 'chat',
    credentials: () => ({}),
    subscriber: (s) => ({ webhookUrl: `${s.http.url}/hooks/mattermost-secret`, channel: 'town-square' }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.json]).toEqual([
        'POST',
        '/hooks/mattermost-secret',
        { text: CONTENT, channel: 'town-square' },
      ]);
    },
  },
  {
    providerId: 'grafana-on-call',
    channel: 'chat',
    credentials: () => ({ imageUrl: 'https://img.test/a.png' }),
    subscriber: (s) => ({
      webhookUrl: `${s.http.url}/integrations/v1/formatted_webhook/grafana-secret/`,
      alertUid: 'alert-7',
      title: 'Order alert',
      state: 'alerting',
      externalUrl: 'https://shop.test/orders/A-17',
    }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path]).toEqual(['POST', '/integrations/v1/formatted_webhook/grafana-secret/']);
      expect(request.json).toEqual({
        alert_uid: 'alert-7',
        title: 'Order alert',
        image_url: 'https://img.test/a.png',
        state: 'alerting',
        link_to_upstream_details: 'https://shop.test/orders/A-17',
        message: CONTENT,
      });
    },
  },
  {
    providerId: 'rocket-chat',
    channel: 'chat',
    credentials: () => ({ token: 'rc-secret-token', user: 'rc-user' }),
    subscriber: (s) => ({ webhookUrl: s.http.url, channel: 'ROOM1' }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers['x-auth-token'], request.headers['x-user-id']]).toEqual([
        'POST',
        '/api/v1/chat.sendMessage',
        'rc-secret-token',
        'rc-user',
      ]);
      expect(request.json).toEqual({ message: { rid: 'ROOM1', msg: CONTENT } });
    },
  },
  {
    providerId: 'getstream',
    channel: 'chat',
    credentials: () => ({ apiKey: 'gs-secret-key' }),
    subscriber: (s) => ({ webhookUrl: `${s.http.url}/stream/hook` }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers['x-api-key'], request.json]).toEqual([
        'POST',
        '/stream/hook',
        'gs-secret-key',
        { text: CONTENT },
      ]);
    },
  },
  {
    providerId: 'whatsapp-business',
    channel: 'chat',
    credentials: (s) => ({ apiToken: 'wa-secret-token', phoneNumberIdentification: '1055', baseUrl: s.http.url }),
    subscriber: () => ({}),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/1055/messages',
        'Bearer wa-secret-token',
      ]);
      expect(request.json).toMatchObject({
        messaging_product: 'whatsapp',
        to: PHONE.slice(1),
        type: 'text',
        text: { body: CONTENT },
      });
    },
  },
  {
    providerId: 'chat-webhook',
    channel: 'chat',
    credentials: () => ({ secretKey: 'chat-hook-secret' }),
    subscriber: (s) => ({ webhookUrl: `${s.http.url}/chat-hook` }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path]).toEqual(['POST', '/chat-hook']);
      expect(request.headers['x-novu-signature']).toBe(signature('chat-hook-secret', request));
      expect(request.json).toMatchObject({
        content: CONTENT,
        payload: { order: 'A-17' },
        subscriberId: expect.any(String),
        transactionId: expect.any(String),
      });
    },
  },
  {
    providerId: 'fcm',
    channel: 'push',
    credentials: (s) => ({
      serviceAccount: JSON.stringify({
        type: 'service_account',
        project_id: 'acme-app',
        client_email: 'sender@acme-app.iam.gserviceaccount.com',
        private_key: fcmKey,
        token_uri: `${s.http.url}/token`,
      }),
      baseUrl: s.http.url,
    }),
    subscriber: () => ({ deviceTokens: [TOKEN] }),
    check: (requests) => {
      expect(requests.map((request) => request.path)).toEqual(['/token', '/v1/projects/acme-app/messages:send']);
      expect(requests[0].form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
      const send = requests[1];
      expect([send.method, send.headers.authorization]).toEqual(['POST', 'Bearer ya29.e2e-access']);
      expect(send.json.message).toMatchObject({ token: TOKEN, notification: { title: SUBJECT, body: CONTENT } });
    },
  },
  {
    providerId: 'apns',
    channel: 'push',
    http2: true,
    credentials: (s) => ({
      secretKey: apnsKey,
      apiKey: 'KEYID1234',
      projectName: 'TEAMID1234',
      applicationId: 'com.acme.app',
      baseUrl: s.h2.url,
    }),
    subscriber: () => ({ deviceTokens: [TOKEN] }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers['apns-topic']]).toEqual([
        'POST',
        `/3/device/${TOKEN}`,
        'com.acme.app',
      ]);
      expect(request.headers.authorization).toMatch(/^bearer eyJ/);
      expect(request.json.aps).toEqual({ alert: { title: SUBJECT, body: CONTENT } });
    },
  },
  {
    providerId: 'expo',
    channel: 'push',
    credentials: (s) => ({ apiKey: 'expo-secret-access', baseUrl: s.http.url }),
    subscriber: () => ({ deviceTokens: [TOKEN] }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/--/api/v2/push/send',
        'Bearer expo-secret-access',
      ]);
      expect(request.json).toMatchObject({ to: TOKEN, title: SUBJECT, body: CONTENT });
    },
  },
  {
    providerId: 'one-signal',
    channel: 'push',
    credentials: (s) => ({ apiKey: 'os-secret-key', applicationId: 'app-uuid', baseUrl: s.http.url }),
    subscriber: () => ({ deviceTokens: [TOKEN] }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/notifications',
        'Key os-secret-key',
      ]);
      expect(request.json).toMatchObject({
        app_id: 'app-uuid',
        include_subscription_ids: [TOKEN],
        headings: { en: SUBJECT },
        contents: { en: CONTENT },
      });
    },
  },
  {
    providerId: 'pushpad',
    channel: 'push',
    credentials: (s) => ({ apiKey: 'pp-secret-token', applicationId: '42', baseUrl: s.http.url }),
    subscriber: () => ({ deviceTokens: [TOKEN] }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/api/v1/projects/42/notifications',
        'Token token="pp-secret-token"',
      ]);
      expect(request.json).toEqual({ notification: { title: SUBJECT, body: CONTENT }, uids: [TOKEN] });
    },
  },
  {
    providerId: 'pusher-beams',
    channel: 'push',
    credentials: (s) => ({ instanceId: 'inst-1', secretKey: 'beams-secret-key', baseUrl: s.http.url }),
    subscriber: () => ({ deviceTokens: [TOKEN] }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path, request.headers.authorization]).toEqual([
        'POST',
        '/publish_api/v1/instances/inst-1/publishes/users',
        'Bearer beams-secret-key',
      ]);
      expect(request.json).toMatchObject({ users: [TOKEN], fcm: { notification: { title: SUBJECT, body: CONTENT } } });
    },
  },
  {
    providerId: 'appio',
    channel: 'push',
    credentials: (s) => ({ apiKey: 'io-secret-key', baseUrl: s.http.url }),
    subscriber: () => ({ deviceTokens: ['RSSMRA80A01H501U'] }),
    check: (requests) => {
      expect(
        requests.map((request) => [request.method, request.path, request.headers['ocp-apim-subscription-key']]),
      ).toEqual([
        ['POST', '/profiles', 'io-secret-key'],
        ['POST', '/messages', 'io-secret-key'],
      ]);
      expect(requests[1].json).toEqual({
        fiscal_code: 'RSSMRA80A01H501U',
        content: { subject: SUBJECT, markdown: CONTENT },
      });
    },
  },
  {
    providerId: 'push-webhook',
    channel: 'push',
    credentials: (s) => ({ webhookUrl: `${s.http.url}/push-hook`, secretKey: 'push-hook-secret' }),
    subscriber: () => ({ deviceTokens: [TOKEN] }),
    check: (requests) => {
      const request = only(requests);
      expect([request.method, request.path]).toEqual(['POST', '/push-hook']);
      expect(request.headers['x-novu-signature']).toBe(signature('push-hook-secret', request));
      expect(request.json).toMatchObject({ target: [TOKEN], title: SUBJECT, content: CONTENT });
    },
  },
];

const TEMPLATES: Record<Channel, Record<string, unknown>> = {
  email: {
    type: 'email',
    subject: 'Order {{payload.order}}',
    content: '<p>Hi {{subscriber.firstName}}, order {{payload.order}} shipped</p>',
  },
  sms: { type: 'sms', content: 'Hi {{subscriber.firstName}}, order {{payload.order}} shipped' },
  chat: { type: 'chat', content: 'Hi {{subscriber.firstName}}, order {{payload.order}} shipped' },
  push: {
    type: 'push',
    title: 'Order {{payload.order}}',
    content: 'Hi {{subscriber.firstName}}, order {{payload.order}} shipped',
  },
};

/** Credential values that look secret (the test rows put "secret" in every one, plus the PEM keys). */
function secretsOf(values: Record<string, unknown>): string[] {
  return Object.values(values).filter(
    (value): value is string =>
      typeof value === 'string' && (value.includes('secret') || value.includes('PRIVATE KEY')),
  );
}

describe('delivery through every provider (integration via API, workflow triggered via API, local receivers)', () => {
  let t: TestApp;
  let servers: Servers;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    t = await startTestApp({
      env: { PROVIDER_MAX_ATTEMPTS: '2', PROVIDER_TIMEOUT_MS: '3000', PROVIDER_BACKOFF_MS: '10' },
    });
    smtp = await startSmtpReceiver();
    servers = { http: await startProviderReceiver({ answer }), h2: await startProviderReceiver({ http2: true }), smtp };
  });
  afterAll(async () => {
    await t?.close();
    await servers?.http.close();
    await servers?.h2.close();
    await smtp?.close();
  });

  it('covers every registered provider', () => {
    const covered = new Set(ROWS.map((row) => row.providerId));
    for (const providerId of [
      'nodemailer',
      'sendgrid',
      'mailgun',
      'postmark',
      'resend',
      'ses',
      'twilio',
      'vonage',
      'plivo',
      'sns',
      'sms-webhook',
    ])
      expect(covered).toContain(providerId);
    for (const providerId of [
      'slack',
      'service-slack',
      'discord',
      'msteams',
      'mattermost',
      'ryver',
      'zulip',
      'grafana-on-call',
      'rocket-chat',
      'getstream',
      'whatsapp-business',
      'chat-webhook',
    ]) {
      expect(covered).toContain(providerId);
    }
    for (const providerId of ['fcm', 'apns', 'expo', 'one-signal', 'pushpad', 'pusher-beams', 'appio', 'push-webhook'])
      expect(covered).toContain(providerId);
  });

  it.each(ROWS.map((row) => [row.providerId, row] as const))('%s', async (providerId, row) => {
    // An environment per provider: email and sms deliver through every active integration of the channel.
    const { apiKey } = await t.createForeignKey();
    const credentials = row.credentials(servers);
    const integration = await t
      .api('post', '/v1/integrations', apiKey)
      .send({ providerId, channel: row.channel, credentials, identifier: `${providerId}-e2e` });
    expect(integration.status).toBe(201);
    const identifier = `delivery-${providerId}`;
    const workflow = await t
      .api('post', '/v1/workflows', apiKey)
      .send({ name: identifier, identifier, steps: [{ template: TEMPLATES[row.channel] }] });
    expect(workflow.status).toBe(201);
    const subscriberId = `ada-${providerId}`;
    expect(
      (
        await t
          .api('post', '/v2/subscribers', apiKey)
          .send({ subscriberId, firstName: 'Ada', email: EMAIL, phone: PHONE })
      ).status,
    ).toBe(201);
    const channelCredentials = row.subscriber?.(servers);
    if (channelCredentials) {
      const patched = await t
        .api('patch', `/v1/subscribers/${subscriberId}/credentials`, apiKey)
        .send({ providerId, credentials: channelCredentials });
      expect(patched.status).toBe(200);
    }
    const receiver = row.http2 ? servers.h2 : servers.http;
    const before = receiver.requests.length;

    const { transactionId, jobs } = await triggerWithKeyAndSettle(t, apiKey, {
      name: identifier,
      to: subscriberId,
      payload: { order: 'A-17' },
    });

    const details = await detailsOf(t, jobs[0].id);
    const messages = await messagesOf(t, transactionId);
    expect({ status: jobs[0].status, details: details.map((detail) => detail.detail) }).toMatchObject({
      status: 'completed',
    });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ status: 'sent', providerId, errorText: null });
    expect(details).toContainEqual(
      expect.objectContaining({
        status: 'Success',
        providerId,
        isRetry: false,
        detail: `Message sent through integration ${providerId}-e2e (${providerId})`,
      }),
    );
    row.check(receiver.requests.slice(before), servers);
    const stored = JSON.stringify([details, messages]);
    for (const secret of secretsOf(credentials)) expect(stored).not.toContain(secret);
  });
});
