import nodemailer from 'nodemailer';
import { privateTargetRefused, resolvePublicAddresses } from '../http/target-guard.js';
import {
  ProviderError,
  recipientsOf,
  type EmailMessage,
  type ProviderAdapter,
  type ProviderCredentials,
  type SendOptions,
  type SendResult,
} from '../provider.js';

const str = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
const bool = (value: unknown) => value === true || value === 'true';

/** SMTP codes and socket errors worth another attempt (server busy, connection trouble). */
function isRetryable(error: { responseCode?: number; code?: string }): boolean {
  if (typeof error.responseCode === 'number') return error.responseCode >= 400 && error.responseCode < 500;
  return ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ECONNRESET', 'ECONNREFUSED', 'EDNS'].includes(error.code ?? '');
}

/** Our own words for nodemailer's error codes: the server's text never goes into a detail. */
const FAILURES: Record<string, string> = {
  EAUTH: 'the server refused the login',
  ENOAUTH: 'the server asks for a login',
  ETLS: 'TLS could not be set up',
  EREQUIRETLS: 'the server does not support REQUIRETLS',
  EDNS: 'the host does not resolve',
  ECONNECTION: 'the connection failed or closed',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ESOCKET: 'the connection failed',
  ETIMEDOUT: 'the server did not answer in time',
  EPROTOCOL: 'the server did not answer as an SMTP server',
  EENVELOPE: 'the server refused the sender or the recipient',
  EMESSAGE: 'the server refused the message',
};

/**
 * "SMTP delivery failed: <our text> (<code>, SMTP <reply code>, during <command>)". Only values we
 * recognise are used: the remote side chooses the response text (a foreign service reached by a
 * wrong host or port would have its banner shown), so it is left out, here and in `raw`.
 */
function describeFailure(error: { code?: unknown; responseCode?: unknown; command?: unknown }): string {
  const code = typeof error.code === 'string' && /^E[A-Z0-9]{1,20}$/.test(error.code) ? error.code : undefined;
  const facts = [
    code,
    typeof error.responseCode === 'number' && Number.isInteger(error.responseCode)
      ? `SMTP ${error.responseCode}`
      : undefined,
    typeof error.command === 'string' && /^[A-Z][A-Z ]{0,15}$/.test(error.command)
      ? `during ${error.command}`
      : undefined,
  ].filter(Boolean);
  const what = (code && FAILURES[code]) ?? 'the SMTP conversation failed';
  return `SMTP delivery failed: ${what}${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

/** An explicit port must be a TCP port; absent, nodemailer's default (587, or 465 with `secure`) applies as before. */
function smtpPort(value: unknown): number {
  if (value === undefined || value === null || value === '') return 587;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new ProviderError('The SMTP port must be a whole number from 1 to 65535', false, undefined, 'credentials');
  return port;
}

/**
 * Email over SMTP (Novu's `nodemailer` provider): host, port, secure, user, password, from, senderName, TLS options.
 * The host is client-supplied, so it goes through the SSRF guard like webhook URLs: resolved here, every
 * answer checked, and nodemailer connects to the checked address (the name stays the TLS server name).
 */
export class NodemailerProvider implements ProviderAdapter<EmailMessage> {
  readonly providerId = 'nodemailer';
  readonly channel = 'email' as const;

  /** `resolve` is the guard's resolution (a test gives a public-looking name a local address). */
  constructor(private readonly resolve: typeof resolvePublicAddresses = resolvePublicAddresses) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const host = str(credentials.host);
    const from = str(credentials.from);
    if (!host || !from)
      throw new ProviderError('The SMTP integration needs host and from', false, undefined, 'credentials');
    const port = smtpPort(credentials.port);
    const connectTo = options.allowPrivateTargets
      ? { host }
      : {
          host: (
            await this.resolve(host, {
              refused: privateTargetRefused('SMTP host'),
              unresolved: 'SMTP host does not resolve',
            })
          )[0],
          servername: host.replace(/^\[|\]$/g, ''),
        };
    const user = str(credentials.user);
    const transport = nodemailer.createTransport({
      ...connectTo,
      port,
      secure: bool(credentials.secure),
      requireTLS: bool(credentials.requireTls),
      ignoreTLS: bool(credentials.ignoreTls),
      auth: user ? { user, pass: str(credentials.password) ?? '' } : undefined,
      tls:
        typeof credentials.tlsOptions === 'object' && credentials.tlsOptions !== null
          ? credentials.tlsOptions
          : undefined,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
    try {
      const senderName = str(credentials.senderName);
      const info = await transport.sendMail({
        from: senderName ? { name: senderName, address: from } : from,
        to: recipientsOf(message),
        cc: message.cc,
        bcc: message.bcc,
        replyTo: message.replyTo,
        subject: message.subject,
        html: message.html,
        text: message.text,
      });
      return { id: info.messageId, date: new Date().toISOString() };
    } catch (error) {
      const failure = error as Error & { responseCode?: number; code?: string; command?: string };
      throw new ProviderError(
        describeFailure(failure),
        isRetryable(failure),
        undefined,
        failure.code === 'EAUTH' ? 'credentials' : 'provider',
      );
    } finally {
      transport.close();
    }
  }
}
