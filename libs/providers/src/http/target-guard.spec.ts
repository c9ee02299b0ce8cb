import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import type { PushMessage } from '../provider.js';
import { ApnsProvider } from '../push/apns.provider.js';
import { failureOf } from '../testing/failure.test.js';
import { startReceiver, type Receiver } from '../testing/local-receiver.test.js';
import { postEvent } from './post-event.js';
import { postJson } from './post-json.js';
import { providerSend } from './provider-request.js';
import { assertPublicTarget, guardedLookup, PRIVATE_TARGET_REFUSED, setHostResolver } from './target-guard.js';

const refused = async (url: string) => {
  await expect(assertPublicTarget(url, false)).rejects.toMatchObject({
    message: PRIVATE_TARGET_REFUSED,
    retryable: false,
    kind: 'target',
  });
};

describe('SSRF guard (assertPublicTarget)', () => {
  it.each([
    'http://127.0.0.1/',
    'http://10.1.2.3/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[::ffff:127.0.0.1]/',
  ])('refuses the plain private address %s', refused);

  it.each([
    // NAT64 well-known prefix (RFC 6052) with a private IPv4 in its last 32 bits.
    'http://[64:ff9b::127.0.0.1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[64:ff9b::169.254.169.254]/',
    'http://[64:ff9b::c0a8:101]/',
    // NAT64 local-use prefix (RFC 8215): the operator chooses where the IPv4 sits, so all of it.
    'http://[64:ff9b:1::1]/',
    'http://[64:ff9b:1:ffff::808:808]/',
    // IPv4-compatible (deprecated ::/96) forms, dotted and as URL parsers normalize them.
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[::10.0.0.1]/',
    'http://[::a9fe:a9fe]/',
    // IPv4-mapped, in the hex form the URL parser produces, and IPv4-translated (::ffff:0:0/96).
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:a00:1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[::ffff:0:10.0.0.1]/',
    // 6to4 (2002::/16) carrying a private IPv4 in bits 16-47.
    'http://[2002:7f00:1::1]/',
    'http://[2002:a9fe:a9fe::]/',
  ])('refuses %s, which embeds a private IPv4', refused);

  it.each([
    'http://[64:ff9b::8.8.8.8]/',
    'http://[64:ff9b::5db8:d822]/',
    'http://[::ffff:8.8.8.8]/',
    'http://[2002:808:808::1]/',
    'http://[2606:4700:4700::1111]/',
    'http://93.184.215.14/',
  ])('lets %s through (a public address, also when embedded)', async (url) => {
    await expect(assertPublicTarget(url, false)).resolves.toBeInstanceOf(URL);
  });

  it('ALLOW_PRIVATE_WEBHOOK_TARGETS lifts the check', async () => {
    await expect(assertPublicTarget('http://[64:ff9b::127.0.0.1]/', true)).resolves.toBeInstanceOf(URL);
  });
});

describe('SSRF guard against DNS rebinding: the connection uses checked addresses', () => {
  // A documentation address (TEST-NET-3): public for the guard, routed nowhere.
  const PUBLIC = '203.0.113.7';
  let http1: Receiver;
  let http2: Receiver;
  let asked: string[];
  beforeAll(async () => {
    http1 = await startReceiver();
    http2 = await startReceiver({ status: 200, body: '' }, true);
  });
  afterAll(async () => {
    await http1.close();
    await http2.close();
  });
  afterEach(() => setHostResolver());

  /** A hostile DNS server: a public answer to the first question, 127.0.0.1 to every later one. */
  const rebinding = () => {
    asked = [];
    setHostResolver((host) => {
      asked.push(host);
      return Promise.resolve([{ address: asked.length === 1 ? PUBLIC : '127.0.0.1', family: 4 }]);
    });
  };
  // `localhost` is what the system resolver answers 127.0.0.1 for: a client that resolves the name
  // again on its own (instead of through the guard) reaches the local receiver.
  const port = (receiver: Receiver) => new URL(receiver.url).port;
  const guarded = { timeoutMs: 2000, allowPrivateTargets: false };
  const refusal = { name: 'ProviderError', message: PRIVATE_TARGET_REFUSED, retryable: false, kind: 'target' };

  it('a webhook POST: the check sees the public answer, the connection the private one and is refused', async () => {
    rebinding();
    const before = http1.requests.length;
    const error = await failureOf(postJson(`http://localhost:${port(http1)}/hook`, { text: 'hi' }, guarded));
    expect(http1.requests.length).toBe(before);
    expect(error).toMatchObject(refusal);
    expect(asked).toEqual(['localhost', 'localhost']);
  });

  it('an outbound webhook event (postEvent): refused at connect time too', async () => {
    rebinding();
    const before = http1.requests.length;
    const error = await failureOf(postEvent(`http://localhost:${port(http1)}/events`, {}, '{}', guarded));
    expect(http1.requests.length).toBe(before);
    expect(error).toMatchObject(refusal);
  });

  it('a baseUrl override (providerSend with guard): refused at connect time too', async () => {
    rebinding();
    const before = http1.requests.length;
    const call = { provider: 'Acme', url: `http://localhost:${port(http1)}/v1/send`, guard: true, json: { to: 'x' } };
    await expect(providerSend(call, guarded)).rejects.toMatchObject(refusal);
    expect(http1.requests.length).toBe(before);
  });

  it('APNs over HTTP/2 with a baseUrl override: refused at connect time', async () => {
    rebinding();
    const before = http2.requests.length;
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentials = {
      secretKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      apiKey: 'KEYID1234',
      projectName: 'TEAMID1234',
      applicationId: 'com.acme.app',
      baseUrl: `http://localhost:${port(http2)}`,
    };
    const push: PushMessage = {
      channel: 'push',
      deviceToken: 'device-token-1',
      title: 'T',
      content: 'C',
      payload: {},
      subscriberId: 'sub-1',
      transactionId: 'tx-1',
    };
    await expect(new ApnsProvider().send(push, credentials, guarded)).rejects.toMatchObject(refusal);
    expect(http2.requests.length).toBe(before);
    expect(asked).toEqual(['localhost', 'localhost']);
  });

  it('ALLOW_PRIVATE_WEBHOOK_TARGETS=true is the way around it: no check, the system resolver', async () => {
    rebinding();
    const before = http1.requests.length;
    await postJson(`http://localhost:${port(http1)}/hook`, { text: 'hi' }, { ...guarded, allowPrivateTargets: true });
    expect(http1.requests.length).toBe(before + 1);
    expect(asked).toEqual([]);
  });

  describe('guardedLookup (the connect-time lookup)', () => {
    const lookupOf = (hostname: string, options: { all?: boolean; family?: number }) =>
      new Promise<{ error: unknown; address: unknown; family: unknown }>((resolve) =>
        guardedLookup(hostname, options, (error, address, family) => resolve({ error, address, family })),
      );
    const answers = (...addresses: string[]) =>
      setHostResolver(() =>
        Promise.resolve(
          addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
        ),
      );

    it('hands the socket only checked public addresses, one or all as asked', async () => {
      answers(PUBLIC, '2001:db8::7');
      expect(await lookupOf('hooks.example.test', {})).toEqual({ error: null, address: PUBLIC, family: 4 });
      expect(await lookupOf('hooks.example.test', { all: true })).toEqual({
        error: null,
        address: [
          { address: PUBLIC, family: 4 },
          { address: '2001:db8::7', family: 6 },
        ],
        family: undefined,
      });
      expect(await lookupOf('hooks.example.test', { family: 6 })).toEqual({
        error: null,
        address: '2001:db8::7',
        family: 6,
      });
    });

    it.each([['127.0.0.1'], ['169.254.169.254'], [PUBLIC, '10.0.0.5'], ['::ffff:127.0.0.1'], [PUBLIC, 'fd00::1']])(
      'refuses when any answer is internal: %s',
      async (...addresses) => {
        answers(...addresses);
        for (const options of [{}, { all: true }]) {
          const { error, address } = await lookupOf('hooks.example.test', options);
          expect(error).toMatchObject(refusal);
          expect(address).toBeFalsy();
        }
      },
    );

    it('a name that does not resolve fails the connection, retryable', async () => {
      answers();
      expect((await lookupOf('hooks.example.test', {})).error).toMatchObject({
        message: 'Webhook host does not resolve',
        retryable: true,
        kind: 'target',
      });
    });
  });
});
