import { describe, expect, it } from '@jest/globals';
import type { EmailMessage, SmsMessage } from '#providers';
import { overriddenSend, StepOverrides } from './trigger-overrides.js';

const emailJob = { type: 'email', step: { _id: 'step-1', name: 'welcome', active: true } } as never;
const email: EmailMessage = { channel: 'email', to: 'ada@example.com', subject: 's', html: 'h', text: 't' };

describe('StepOverrides', () => {
  it('merges step over provider over channel, per provider', () => {
    const overrides = new StepOverrides(
      {
        email: { replyTo: 'channel@a.test', cc: 'cc@a.test' },
        sendgrid: { replyTo: 'legacy@a.test', categories: ['legacy'] },
        providers: { sendgrid: { replyTo: 'provider@a.test', ip_pool_name: 'pool' } },
        steps: { welcome: { replyTo: 'step@a.test', providers: { sendgrid: { categories: ['step'] } } } },
      },
      emailJob,
    );
    expect(overrides.forProvider('sendgrid')).toEqual({
      message: { replyTo: 'step@a.test', cc: 'cc@a.test' },
      provider: { fields: { categories: ['step'], ip_pool_name: 'pool' }, passthrough: undefined },
    });
    // Another provider sees only the channel and step levels.
    expect(overrides.forProvider('mailgun')).toEqual({
      message: { replyTo: 'step@a.test', cc: 'cc@a.test' },
      provider: undefined,
    });
  });

  it('finds the step by id or name, and merges passthrough parts with the step level last', () => {
    const overrides = new StepOverrides(
      {
        providers: { sendgrid: { _passthrough: { headers: { a: '1', b: '1' }, query: { q: 'p' } } } },
        steps: { 'step-1': { providers: { sendgrid: { _passthrough: { headers: { b: '2' }, body: { x: 1 } } } } } },
      },
      emailJob,
    );
    expect(overrides.forProvider('sendgrid').provider?.passthrough).toEqual({
      headers: { a: '1', b: '2' },
      query: { q: 'p' },
      body: { x: 1 },
    });
  });

  it('integrationIdentifier: the step level wins, and says where it came from', () => {
    expect(new StepOverrides({ email: { integrationIdentifier: 'a' } }, emailJob).integrationIdentifierPath).toBe(
      'overrides.email.integrationIdentifier',
    );
    const stepLevel = new StepOverrides(
      { email: { integrationIdentifier: 'a' }, steps: { welcome: { integrationIdentifier: 'b' } } },
      emailJob,
    );
    expect([stepLevel.integrationIdentifier, stepLevel.integrationIdentifierPath]).toEqual(['b', 'overrides.steps']);
    expect(new StepOverrides({ email: { integrationIdentifier: 7 } }, emailJob).integrationIdentifier).toBeUndefined();
  });
});

describe('overriddenSend', () => {
  it('email: to adds recipients (deduplicated), cc, bcc, replyTo; from and senderName replace the sender', () => {
    const result = overriddenSend(email, {
      message: {
        to: ['ada@example.com', 'extra@example.com'],
        cc: 'cc@example.com',
        bcc: ['b@example.com'],
        replyTo: 'r@example.com',
        from: 'f@example.com',
        senderName: 'Billing',
      },
    });
    expect(result).toEqual({
      message: {
        ...email,
        overrides: undefined,
        alsoTo: ['extra@example.com'],
        cc: ['cc@example.com'],
        bcc: ['b@example.com'],
        replyTo: 'r@example.com',
      },
      sender: { from: 'f@example.com', senderName: 'Billing' },
    });
  });

  it('email: an address that is not one address is refused', () => {
    for (const message of [
      { cc: 'a@b.test, c@d.test' },
      { from: 'Evil <e@x.test>' },
      { to: ['a@b.test\r\nBcc: x@y.test'] },
    ])
      expect(overriddenSend(email, { message })).toHaveProperty('refusal');
  });

  it('sms: to and content replace the subscriber number and the rendered text', () => {
    const sms: SmsMessage = { channel: 'sms', to: '+15550001111', content: 'hi' };
    expect(overriddenSend(sms, { message: { to: '+15550002222', content: 'bye', from: 'ACME' } })).toEqual({
      message: { ...sms, to: '+15550002222', content: 'bye', overrides: undefined },
      sender: { from: 'ACME' },
    });
  });
});
