import nodemailer from 'nodemailer';
import { ProviderError, type EmailMessage, type ProviderAdapter, type ProviderCredentials, type SendOptions, type SendResult } from '../provider.js';

const str = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
const bool = (value: unknown) => value === true || value === 'true';

/** SMTP codes and socket errors worth another attempt (server busy, connection trouble). */
function isRetryable(error: { responseCode?: number; code?: string }): boolean {
  if (typeof error.responseCode === 'number') return error.responseCode >= 400 && error.responseCode < 500;
  return ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ECONNRESET', 'ECONNREFUSED', 'EDNS'].includes(error.code ?? '');
}

/** Email over SMTP (Novu's `nodemailer` provider): host, port, secure, user, password, from, senderName, TLS options. */
export class NodemailerProvider implements ProviderAdapter<EmailMessage> {
  readonly providerId = 'nodemailer';
  readonly channel = 'email' as const;

  async send(message: EmailMessage, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult> {
    const host = str(credentials.host);
    const from = str(credentials.from);
    if (!host || !from) throw new ProviderError('The SMTP integration needs host and from', false, undefined, 'credentials');
    const user = str(credentials.user);
    const transport = nodemailer.createTransport({
      host,
      port: Number(credentials.port ?? 587),
      secure: bool(credentials.secure),
      requireTLS: bool(credentials.requireTls),
      ignoreTLS: bool(credentials.ignoreTls),
      auth: user ? { user, pass: str(credentials.password) ?? '' } : undefined,
      tls: typeof credentials.tlsOptions === 'object' && credentials.tlsOptions !== null ? (credentials.tlsOptions as object) : undefined,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
    try {
      const senderName = str(credentials.senderName);
      const info = await transport.sendMail({
        from: senderName ? { name: senderName, address: from } : from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
      });
      return { id: info.messageId, date: new Date().toISOString() };
    } catch (error) {
      const failure = error as Error & { responseCode?: number; code?: string; response?: string };
      throw new ProviderError(`SMTP delivery failed: ${failure.message}`, isRetryable(failure), failure.response, failure.code === 'EAUTH' ? 'credentials' : 'provider');
    } finally {
      transport.close();
    }
  }
}
