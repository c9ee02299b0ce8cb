import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { EmailMessage } from '../provider.js';
import { expectedAuthorization } from '../testing/aws-signature.test.js';
import { failureOf } from '../testing/failure.test.js';
import { sendOptions, startReceiver, type Receiver } from '../testing/local-receiver.test.js';
import { MailgunProvider } from './mailgun.provider.js';
import { NodemailerProvider } from './nodemailer.provider.js';
import { PostmarkProvider } from './postmark.provider.js';
import { ResendProvider } from './resend.provider.js';
import { SendgridProvider } from './sendgrid.provider.js';
import { SesProvider } from './ses.provider.js';

const message: EmailMessage = {
  channel: 'email',
  to: 'ada@example.com',
  subject: 'Your code',
  html: '<p>Code 1234</p>',
  text: 'Code 1234',
};

describe('email providers against a local receiver', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  const last = () => receiver.requests.at(-1)!;

  it('sendgrid: POST /v3/mail/send with Bearer key, personalizations, subject and content', async () => {
    receiver.replies.push({ status: 202, body: '', headers: { 'x-message-id': 'sg-1' } });
    const result = await new SendgridProvider().send(
      message,
      { apiKey: 'SG.key', from: 'no-reply@acme.test', senderName: 'Acme', baseUrl: receiver.url },
      sendOptions,
    );
    expect(result.id).toBe('sg-1');
    const request = last();
    expect([request.method, request.path, request.headers.authorization]).toEqual([
      'POST',
      '/v3/mail/send',
      'Bearer SG.key',
    ]);
    expect(request.json).toEqual({
      personalizations: [{ to: [{ email: 'ada@example.com' }] }],
      from: { email: 'no-reply@acme.test', name: 'Acme' },
      subject: 'Your code',
      content: [
        { type: 'text/plain', value: 'Code 1234' },
        { type: 'text/html', value: '<p>Code 1234</p>' },
      ],
    });
  });

  it('mailgun: POST /v3/{domain}/messages, Basic api:key, form fields', async () => {
    receiver.replies.push({ body: { id: '<mg-1@acme.test>', message: 'Queued. Thank you.' } });
    const result = await new MailgunProvider().send(
      message,
      {
        apiKey: 'key-123',
        domain: 'mg.acme.test',
        from: 'no-reply@acme.test',
        senderName: 'Acme',
        baseUrl: receiver.url,
      },
      sendOptions,
    );
    expect(result.id).toBe('<mg-1@acme.test>');
    const request = last();
    expect([request.method, request.path, request.headers.authorization]).toEqual([
      'POST',
      '/v3/mg.acme.test/messages',
      `Basic ${Buffer.from('api:key-123').toString('base64')}`,
    ]);
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request.form)).toEqual({
      from: 'Acme <no-reply@acme.test>',
      to: 'ada@example.com',
      subject: 'Your code',
      html: '<p>Code 1234</p>',
      text: 'Code 1234',
    });
  });

  it('postmark: POST /email with X-Postmark-Server-Token', async () => {
    receiver.replies.push({
      body: {
        To: 'ada@example.com',
        SubmittedAt: '2024-01-01T00:00:00Z',
        MessageID: 'pm-1',
        ErrorCode: 0,
        Message: 'OK',
      },
    });
    const result = await new PostmarkProvider().send(
      message,
      { apiKey: 'pm-token', from: 'no-reply@acme.test', baseUrl: receiver.url },
      sendOptions,
    );
    expect(result).toEqual({ id: 'pm-1', date: '2024-01-01T00:00:00Z' });
    const request = last();
    expect([request.method, request.path, request.headers['x-postmark-server-token']]).toEqual([
      'POST',
      '/email',
      'pm-token',
    ]);
    expect(request.json).toMatchObject({
      From: 'no-reply@acme.test',
      To: 'ada@example.com',
      Subject: 'Your code',
      HtmlBody: '<p>Code 1234</p>',
      TextBody: 'Code 1234',
    });
  });

  it('resend: POST /emails with Bearer key', async () => {
    receiver.replies.push({ body: { id: 're-1' } });
    const result = await new ResendProvider().send(
      message,
      { apiKey: 're_key', from: 'no-reply@acme.test', senderName: 'Acme Inc.', baseUrl: receiver.url },
      sendOptions,
    );
    expect(result.id).toBe('re-1');
    const request = last();
    expect([request.method, request.path, request.headers.authorization]).toEqual(['POST', '/emails', 'Bearer re_key']);
    expect(request.json).toEqual({
      from: 'Acme Inc. <no-reply@acme.test>',
      to: ['ada@example.com'],
      subject: 'Your code',
      html: '<p>Code 1234</p>',
      text: 'Code 1234',
    });
  });

  it('ses: POST /v2/email/outbound-emails signed with SigV4 (signature verifies)', async () => {
    receiver.replies.push({ body: { MessageId: 'ses-1' } });
    const credentials = {
      apiKey: 'AKIDTEST',
      secretKey: 'ses-secret',
      region: 'eu-west-1',
      from: 'no-reply@acme.test',
      baseUrl: receiver.url,
    };
    const result = await new SesProvider().send(message, credentials, sendOptions);
    expect(result.id).toBe('ses-1');
    const request = last();
    expect([request.method, request.path]).toEqual(['POST', '/v2/email/outbound-emails']);
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/ses\/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(request.headers.authorization).toBe(
      expectedAuthorization(request, 'ses', 'eu-west-1', { accessKeyId: 'AKIDTEST', secretAccessKey: 'ses-secret' }),
    );
    expect(request.json).toEqual({
      FromEmailAddress: 'no-reply@acme.test',
      Destination: { ToAddresses: ['ada@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Your code', Charset: 'UTF-8' },
          Body: { Html: { Data: '<p>Code 1234</p>', Charset: 'UTF-8' }, Text: { Data: 'Code 1234', Charset: 'UTF-8' } },
        },
      },
    });
  });

  it('ses: temporary credentials send their session token as X-Amz-Security-Token, signed', async () => {
    receiver.replies.push({ body: { MessageId: 'ses-2' } });
    const keys = { accessKeyId: 'ASIATEST', secretAccessKey: 'ses-secret', sessionToken: 'ses-session-token' };
    const credentials = {
      accessKey: keys.accessKeyId,
      secretKey: keys.secretAccessKey,
      sessionToken: keys.sessionToken,
      region: 'eu-west-1',
      from: 'no-reply@acme.test',
      baseUrl: receiver.url,
    };
    expect((await new SesProvider().send(message, credentials, sendOptions)).id).toBe('ses-2');
    const request = last();
    expect(request.headers['x-amz-security-token']).toBe('ses-session-token');
    expect(request.headers.authorization).toContain('SignedHeaders=content-type;host;x-amz-date;x-amz-security-token,');
    expect(request.headers.authorization).toBe(expectedAuthorization(request, 'ses', 'eu-west-1', keys));
  });

  it('ses: a throttling error type is retryable whatever the status', async () => {
    receiver.replies.push({
      status: 400,
      body: { message: 'Rate exceeded' },
      headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal' },
    });
    const credentials = {
      apiKey: 'AKIDTEST',
      secretKey: 'ses-secret',
      region: 'eu-west-1',
      from: 'no-reply@acme.test',
      baseUrl: receiver.url,
    };
    await expect(new SesProvider().send(message, credentials, sendOptions)).rejects.toMatchObject({
      retryable: true,
      message: 'Amazon SES answered HTTP 400: Rate exceeded',
    });
  });

  it('a missing credential is a non-retryable configuration error', async () => {
    await expect(new SendgridProvider().send(message, { from: 'x@acme.test' }, sendOptions)).rejects.toMatchObject({
      retryable: false,
      message: 'The sendgrid integration is missing credentials: apiKey',
    });
  });
});

describe('nodemailer (SMTP) against a local smtp-server', () => {
  const mails: { from: string; to: string[]; raw: string; user?: string }[] = [];
  let server: SMTPServer;
  let port: number;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'smtp-user' && auth.password === 'smtp-pass')
          return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('busy@'))
          return callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
        if (address.address.startsWith('nobody@'))
          return callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
        return callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            user: session.user as string | undefined,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const smtp = () => ({
    host: '127.0.0.1',
    port: String(port),
    secure: false,
    ignoreTls: true,
    user: 'smtp-user',
    password: 'smtp-pass',
    from: 'no-reply@acme.test',
    senderName: 'Acme',
  });

  it('delivers with auth: envelope, From with sender name, subject, html and text parts', async () => {
    await new NodemailerProvider().send(message, smtp(), sendOptions);
    const mail = mails.at(-1)!;
    expect(mail).toMatchObject({ from: 'no-reply@acme.test', to: ['ada@example.com'], user: 'smtp-user' });
    expect(mail.raw).toContain('From: Acme <no-reply@acme.test>');
    expect(mail.raw).toContain('Subject: Your code');
    expect(mail.raw).toContain('Code 1234');
    expect(mail.raw).toContain('<p>Code 1234</p>');
  });

  it('4xx SMTP answers are retryable, 5xx are not; the password never shows', async () => {
    const busy = await failureOf(
      new NodemailerProvider().send({ ...message, to: 'busy@example.com' }, smtp(), sendOptions),
    );
    expect(busy).toMatchObject({ retryable: true });
    const unknown = await failureOf(
      new NodemailerProvider().send({ ...message, to: 'nobody@example.com' }, smtp(), sendOptions),
    );
    expect(unknown).toMatchObject({ retryable: false });
    const badLogin = await failureOf(
      new NodemailerProvider().send(message, { ...smtp(), password: 'wrong-secret-pass' }, sendOptions),
    );
    expect(badLogin.name).toBe('ProviderError');
    for (const error of [busy, unknown, badLogin]) {
      expect(`${error.message} ${error.raw ?? ''}`).not.toContain('smtp-pass');
      expect(`${error.message} ${error.raw ?? ''}`).not.toContain('wrong-secret-pass');
    }
  });

  it('a refused connection is retryable', async () => {
    await expect(new NodemailerProvider().send(message, { ...smtp(), port: '1' }, sendOptions)).rejects.toMatchObject({
      retryable: true,
    });
  });

  it('an explicit port outside 1-65535 is a credentials error, nothing is sent', async () => {
    const before = mails.length;
    for (const port of ['0', '70000', 'smtp', '25.5']) {
      await expect(new NodemailerProvider().send(message, { ...smtp(), port }, sendOptions)).rejects.toMatchObject({
        message: 'The SMTP port must be a whole number from 1 to 65535',
        retryable: false,
        kind: 'credentials',
      });
    }
    expect(mails.length).toBe(before);
  });

  it('errors name the failure in our words: no server text, in the message or raw', async () => {
    const errors = [
      await failureOf(new NodemailerProvider().send({ ...message, to: 'nobody@example.com' }, smtp(), sendOptions)),
      await failureOf(new NodemailerProvider().send(message, { ...smtp(), password: 'wrong' }, sendOptions)),
    ];
    expect(errors.map((error) => [error.message, error.raw])).toEqual([
      [
        expect.stringMatching(
          /^SMTP delivery failed: the server refused the sender or the recipient \(EENVELOPE, SMTP 550, during RCPT TO\)$/,
        ),
        undefined,
      ],
      [
        expect.stringMatching(
          /^SMTP delivery failed: the server refused the login \(EAUTH, SMTP 535, during AUTH PLAIN\)$/,
        ),
        undefined,
      ],
    ]);
    expect(JSON.stringify(errors.map((error) => error.message))).not.toMatch(/No such user|Invalid username/);
  });
});

describe('nodemailer (SMTP): the host goes through the SSRF guard', () => {
  const BANNER = 'SSH-2.0-OpenSSH_9.6 internal-banner-7f3a';
  let server: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.on('error', () => undefined);
      socket.end(`${BANNER}\r\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const guarded = { ...sendOptions, allowPrivateTargets: false };
  const credentials = (host: string) => ({
    host,
    port: String(port),
    secure: false,
    ignoreTls: true,
    from: 'no-reply@acme.test',
  });

  it.each(['127.0.0.1', 'localhost', '[::1]', '::ffff:127.0.0.1', '10.0.0.25', '169.254.169.254'])(
    'refuses %s before connecting, not retryable',
    async (host) => {
      const before = connections;
      const error = await failureOf(new NodemailerProvider().send(message, credentials(host), guarded));
      expect(error).toMatchObject({
        name: 'ProviderError',
        message: expect.stringMatching(
          /^SMTP host refused: it resolves to a loopback, private, link-local or metadata address/,
        ),
        retryable: false,
        kind: 'target',
      });
      expect(connections).toBe(before);
    },
  );

  it('checks the DNS answer and connects to the checked address, not to the name again', async () => {
    const asked: string[] = [];
    const publicAnswer = (host: string) => {
      asked.push(host);
      return Promise.resolve(['127.0.0.1']);
    };
    const before = connections;
    // The name does not resolve at all: a connection can only reach the server through the checked address.
    const error = await failureOf(
      new NodemailerProvider(publicAnswer).send(message, credentials('mail.example.invalid'), guarded),
    );
    expect(asked).toEqual(['mail.example.invalid']);
    expect(connections).toBe(before + 1);
    expect(error.message).toMatch(/^SMTP delivery failed: /);
  });

  it('a foreign service reached with private targets allowed: the delivery fails without its banner', async () => {
    const before = connections;
    const error = await failureOf(new NodemailerProvider().send(message, credentials('127.0.0.1'), sendOptions));
    expect(connections).toBe(before + 1);
    expect(error.name).toBe('ProviderError');
    expect(`${error.message} ${error.raw ?? ''}`).not.toMatch(/SSH-2\.0|internal-banner/);
  });
});
