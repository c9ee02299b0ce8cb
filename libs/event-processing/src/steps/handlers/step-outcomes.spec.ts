import { describe, expect, it } from '@jest/globals';
import type { JobRow } from '#dal';
import type { StepContext } from '../step-context.js';
import { finishDelay, startDelay } from './delay.step.js';
import { emailBody } from '#application';
import { inAppOutcome } from './in-app.step.js';
import { subscriberChannelOutcome } from './subscriber-channel-delivery.js';

const NOW = new Date('2026-01-05T10:00:00.000Z');

function context(type: string, metadata: Record<string, unknown> = {}, payload = {}): StepContext {
  const job = {
    id: 'job-1',
    environmentId: 'env-1',
    organizationId: 'org-1',
    notificationId: 'notification-1',
    subscriberId: 'subscriber-1',
    workflowId: 'workflow-1',
    transactionId: 'tx-1',
    type,
    step: { template: { type }, metadata },
  } as unknown as JobRow;
  return { job, payload, now: NOW, details: [] };
}

describe('step outcomes, decided without a database', () => {
  it('a delay waits amount × unit and says until when; its resume completes it', () => {
    const delay = context('delay', { type: 'regular', amount: 5, unit: 'minutes' });
    expect(startDelay(delay)).toEqual({ status: 'delayed', runAt: new Date('2026-01-05T10:05:00.000Z') });
    expect(delay.details).toEqual([{ status: 'Pending', detail: 'Step delayed until 2026-01-05T10:05:00.000Z' }]);
    expect(finishDelay(delay)).toEqual({ status: 'completed' });
    expect(delay.details[1]).toEqual({ status: 'Success', detail: 'Delay is finished' });
  });

  it('a delay until a payload date that is missing fails with a Payload detail', () => {
    const delay = context('delay', { type: 'timed', delayPath: 'sendAt' });
    const result = startDelay(delay);
    expect(result.status).toBe('failed');
    expect(delay.details[0]).toMatchObject({ status: 'Failed', source: 'Payload' });
  });

  it('an in_app step completes with one sent message of the rendered template', () => {
    const inApp = context('in_app');
    const result = inAppOutcome(inApp, { subject: 'Hi', content: 'Hello Ada', data: { orderId: 7 }, cta: [] });
    expect(result).toMatchObject({ status: 'completed', providerId: 'novu' });
    expect(result.messages).toEqual([
      expect.objectContaining({
        channel: 'in_app',
        jobId: 'job-1',
        subject: 'Hi',
        content: 'Hello Ada',
        data: { orderId: 7 },
        status: 'sent',
        deliveredAt: [NOW.toISOString()],
      }),
    ]);
    expect(inApp.details).toEqual([{ status: 'Success', detail: 'Message created', providerId: 'novu' }]);
  });

  it('an in_app step drops a rendered url a client must not open, says so, and still delivers', () => {
    const inApp = context('in_app');
    const cta = {
      data: { url: ' JaVa\tScRiPt:alert(document.domain)' },
      action: { buttons: [{ type: 'primary', content: 'Open', url: 'https://example.com/a' }] },
    };
    const result = inAppOutcome(inApp, { content: 'Hello', cta });
    expect(result.status).toBe('completed');
    expect(result.messages?.[0].cta).toEqual({
      data: {},
      action: { buttons: [{ type: 'primary', content: 'Open', url: 'https://example.com/a' }] },
    });
    expect(inApp.details).toEqual([
      {
        status: 'Warning',
        source: 'Payload',
        detail:
          'cta.data.url " JaVa\\tScRiPt:alert(document.domain)" was removed: only http(s) and relative URLs reach the inbox',
      },
      { status: 'Success', detail: 'Message created', providerId: 'novu' },
    ]);
  });

  it('chat and push succeed when any delivery succeeded, and fail naming the last error otherwise', () => {
    expect(subscriberChannelOutcome('push', 1, 'token refused', []).status).toBe('completed');
    expect(subscriberChannelOutcome('chat', 0, 'HTTP 500', [])).toMatchObject({
      status: 'failed',
      error: 'All chat channels failed to send the message: HTTP 500',
    });
  });

  it('email blocks become escaped HTML and plain text; HTML content gets its text part', () => {
    expect(
      emailBody([
        { type: 'text', content: 'a <b>' },
        { type: 'button', content: 'Open', url: 'https://x.test/?a=1&b=2' },
      ]),
    ).toEqual({
      html: '<p>a &lt;b&gt;</p>\n<p><a href="https://x.test/?a=1&amp;b=2">Open</a></p>',
      text: 'a <b>\nOpen',
    });
    expect(emailBody('<h1>Hi</h1><p>Ada &amp; Bob</p>').text).toBe('Hi\n\nAda & Bob');
  });

  it("a block's styles.textAlign aligns its paragraph; a value outside center, left, right is left out", () => {
    expect(
      emailBody([
        { type: 'text', content: 'a', styles: { textAlign: 'center' } },
        { type: 'button', content: 'Open', url: 'https://x.test', styles: { textAlign: 'right' } },
        { type: 'text', content: 'b', styles: { textAlign: 'center"><script>' } },
      ]).html,
    ).toBe(
      '<p style="text-align:center">a</p>\n<p style="text-align:right"><a href="https://x.test">Open</a></p>\n<p>b</p>',
    );
  });
});
