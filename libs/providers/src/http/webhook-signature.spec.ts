import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ChatWebhookProvider } from '../chat/chat-webhook.provider.js';
import type { ChatMessage, ProviderAdapter, ProviderMessage, PushMessage, SmsMessage } from '../provider.js';
import { PushWebhookProvider } from '../push/push-webhook.provider.js';
import { SmsWebhookProvider } from '../sms/sms-webhook.provider.js';
import { sendOptions, startReceiver, type Receiver } from '../testing/local-receiver.test.js';

/** The receiver's check exactly as docs/providers.md ("Webhook signatures") tells integrators to write it. */
function verifyNovuSignature(
  header: unknown,
  rawBody: string,
  secretKey: string,
  nowSeconds = Date.now() / 1000,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries(
    (typeof header === 'string' ? header : '').split(',').map((part) => {
      const [key, value] = part.split('=', 2);
      return [key, value] as const;
    }),
  );
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secretKey).update(`${parts.t}.${rawBody}`).digest('hex');
  const received = Buffer.from(parts.v1 ?? '');
  return received.length === expected.length && timingSafeEqual(received, Buffer.from(expected));
}

const SECRET = 'whsec-signing-0001';

describe('webhook signatures (x-novu-signature: t=<unix>,v1=<HMAC of "t.body">)', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  const cases: [string, ProviderAdapter, (url: string) => ProviderMessage, (url: string) => Record<string, unknown>][] =
    [
      [
        'chat-webhook',
        new ChatWebhookProvider(),
        (url) =>
          ({
            channel: 'chat',
            webhookUrl: `${url}/chat`,
            content: 'Hi',
            payload: { a: 1 },
            subscriberId: 's',
            transactionId: 't',
          }) satisfies ChatMessage,
        () => ({ secretKey: SECRET }),
      ],
      [
        'push-webhook',
        new PushWebhookProvider(),
        () =>
          ({
            channel: 'push',
            deviceToken: 'tok',
            title: 'Hi',
            content: 'Hi',
            payload: {},
            subscriberId: 's',
            transactionId: 't',
          }) satisfies PushMessage,
        (url) => ({ webhookUrl: `${url}/push`, secretKey: SECRET }),
      ],
      [
        'sms-webhook',
        new SmsWebhookProvider(),
        () => ({ channel: 'sms', to: '+15550001111', content: 'Hi' }) satisfies SmsMessage,
        (url) => ({ webhookUrl: `${url}/sms`, secretKey: SECRET }),
      ],
    ];

  it.each(cases)(
    '%s: signs the send time with the exact body; a replay after 5 minutes or any change fails verification',
    async (_id, adapter, message, credentials) => {
      const sentAt = Date.now() / 1000;
      await adapter.send(message(receiver.url), credentials(receiver.url), sendOptions);
      const request = receiver.requests.at(-1)!;
      const header = String(request.headers['x-novu-signature']);
      expect(header).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
      const timestamp = Number(/^t=(\d+)/.exec(header)![1]);
      expect(Math.abs(timestamp - sentAt)).toBeLessThanOrEqual(2);
      expect(header).toBe(
        `t=${timestamp},v1=${createHmac('sha256', SECRET).update(`${timestamp}.${request.body}`).digest('hex')}`,
      );

      expect(verifyNovuSignature(header, request.body, SECRET)).toBe(true);
      // The same request captured and sent again later than the tolerance.
      expect(verifyNovuSignature(header, request.body, SECRET, timestamp + 301)).toBe(false);
      // A fresh timestamp on the captured signature, another body, another key.
      const v1 = header.split(',v1=')[1];
      expect(verifyNovuSignature(`t=${Math.floor(Date.now() / 1000) + 60},v1=${v1}`, request.body, SECRET)).toBe(false);
      expect(verifyNovuSignature(header, request.body.replace('Hi', 'Ho'), SECRET)).toBe(false);
      expect(verifyNovuSignature(header, request.body, 'another-secret')).toBe(false);
      // The old format (HMAC of the body alone) is not sent: it could be replayed forever.
      expect(header).not.toContain(createHmac('sha256', SECRET).update(request.body).digest('hex'));
    },
  );

  it.each(cases)('%s: no header without a secretKey', async (_id, adapter, message, credentials) => {
    const { secretKey: _secret, ...unsigned } = credentials(receiver.url);
    await adapter.send(message(receiver.url), unsigned, sendOptions);
    expect(receiver.requests.at(-1)!.headers['x-novu-signature']).toBeUndefined();
  });
});
