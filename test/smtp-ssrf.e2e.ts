import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { detailsOf, messagesOf, triggerWithKeyAndSettle } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** What a foreign service (here: an SSH daemon) says first; it must never reach a detail. */
const BANNER = 'SSH-2.0-OpenSSH_9.6 internal-banner-7f3a';

/** A plain TCP service on loopback that writes its banner to every connection and counts them. */
async function startBannerServer(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.on('error', () => undefined);
    socket.end(`${BANNER}\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A fresh environment whose only email integration is SMTP on `host:port`, a one-step email workflow and a subscriber. */
async function smtpEnvironment(t: TestApp, host: string, port: number) {
  const { apiKey } = await t.createForeignKey();
  const integration = {
    providerId: 'nodemailer',
    channel: 'email',
    credentials: { host, port: String(port), secure: false, ignoreTls: true, from: 'no-reply@acme.test' },
  };
  expect((await t.api('post', '/v1/integrations', apiKey).send(integration)).status).toBe(201);
  const step = { template: { type: 'email', subject: 'Hi', content: 'Hello' } };
  expect(
    (await t.api('post', '/v1/workflows', apiKey).send({ name: 'smtp-ssrf', identifier: 'smtp-ssrf', steps: [step] }))
      .status,
  ).toBe(201);
  expect(
    (await t.api('post', '/v2/subscribers', apiKey).send({ subscriberId: 'ada', email: 'ada@example.com' })).status,
  ).toBe(201);
  const { transactionId, jobs } = await triggerWithKeyAndSettle(t, apiKey, {
    name: 'smtp-ssrf',
    to: 'ada',
    payload: {},
  });
  return { job: jobs[0], details: await detailsOf(t, jobs[0].id), message: (await messagesOf(t, transactionId))[0] };
}

describe('SMTP host through the SSRF guard', () => {
  let banner: Awaited<ReturnType<typeof startBannerServer>>;
  beforeAll(async () => {
    banner = await startBannerServer();
  });
  afterAll(async () => {
    await banner?.close();
  });

  describe('with ALLOW_PRIVATE_WEBHOOK_TARGETS=false', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        env: {
          ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false',
          PROVIDER_MAX_ATTEMPTS: '3',
          PROVIDER_TIMEOUT_MS: '2000',
          PROVIDER_BACKOFF_MS: '20',
        },
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it.each([
      ['a loopback address', '127.0.0.1'],
      ['a name whose DNS answer is loopback', 'localhost'],
      ['an IPv4-mapped IPv6 loopback', '::ffff:127.0.0.1'],
    ])('an SMTP host on %s (%s) is refused before connecting, once, and no banner shows', async (_kind, host) => {
      const before = banner.connections();
      const { job, details, message } = await smtpEnvironment(t, host, banner.port);
      expect(banner.connections()).toBe(before);
      expect(job.status).toBe('failed');
      const failed = details.filter((detail) => detail.status === 'Failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ providerId: 'nodemailer', isRetry: false });
      expect(failed[0].detail).toContain(
        'SMTP host refused: it resolves to a loopback, private, link-local or metadata address',
      );
      expect(message).toMatchObject({ status: 'error', errorText: expect.stringContaining('SMTP host refused') });
      expect(JSON.stringify([details, message, job.error])).not.toMatch(/SSH-2\.0|internal-banner/);
    });
  });

  describe('with private targets allowed', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { PROVIDER_MAX_ATTEMPTS: '1', PROVIDER_TIMEOUT_MS: '2000' } });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('a foreign service that answers with its banner fails the delivery without its text in any detail', async () => {
      const before = banner.connections();
      const { job, details, message } = await smtpEnvironment(t, '127.0.0.1', banner.port);
      expect(banner.connections()).toBeGreaterThan(before);
      expect(job.status).toBe('failed');
      expect(message).toMatchObject({ status: 'error', errorText: expect.stringContaining('SMTP delivery failed') });
      expect(JSON.stringify([details, message, job.error])).not.toMatch(/SSH-2\.0|internal-banner/);
    });
  });
});
