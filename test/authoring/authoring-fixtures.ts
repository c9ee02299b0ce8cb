import { expect } from '@jest/globals';
import { Novu } from '@novu/api';
import { createIntegration } from '../support/builders.js';
import { startSmtpReceiver } from '../support/receivers.js';
import type { SdkApp } from '../sdk/sdk-app.js';

export type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>;

/** The SDK against the same service with another API key (another environment or organization). */
export function sdkWithKey(sdk: SdkApp, apiKey: string): Novu {
  const { port } = sdk.t.app.getHttpServer().address() as { port: number };
  return new Novu({ secretKey: apiKey, serverURL: `http://127.0.0.1:${port}`, retryConfig: { strategy: 'none' } });
}

/** A local SMTP server behind the environment's nodemailer integration. */
export async function emailThroughSmtp(sdk: SdkApp): Promise<SmtpReceiver> {
  const smtp = await startSmtpReceiver();
  await createIntegration(sdk.t, {
    providerId: 'nodemailer',
    channel: 'email',
    credentials: { host: '127.0.0.1', port: String(smtp.port), secure: false, ignoreTls: true, from: 'a@b.co' },
  });
  return smtp;
}

/** POST /v1/workflows with these steps; answers the trigger identifier. */
export async function createV1Workflow(sdk: SdkApp, name: string, steps: unknown[]): Promise<string> {
  const res = await sdk.t.api('post', '/v1/workflows').send({ name, steps });
  expect([res.status, res.body.errors]).toEqual([201, undefined]);
  return res.body.triggers[0].identifier as string;
}

/** The one mail the SMTP server received for this address (quoted-printable soft breaks undone). */
export function mailTo(smtp: SmtpReceiver, address: string): string {
  const mails = smtp.mails.filter((mail) => mail.to.includes(address));
  expect(mails).toHaveLength(1);
  return mails[0].raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}
