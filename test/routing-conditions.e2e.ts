import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { detailsOf, messagesOf, triggerWithKeyAndSettle } from './support/engine-fixtures.js';
import { createProviderEnvironment } from './support/provider-environment.js';
import { startProviderReceiver, type ProviderReceiver } from './support/receivers.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Integration conditions route a tenant's messages through its own integration: created through the
 * API, triggered through the API, seen by local provider receivers (each integration's baseUrl has
 * its own path, so the receiver tells them apart).
 */

const EMAIL_STEP = { template: { type: 'email', subject: 'Hello', content: '<p>Hi {{subscriber.firstName}}</p>' } };
const CHAT_STEP = { template: { type: 'chat', content: 'Hi {{subscriber.firstName}}' } };
const tenantIs = (identifier: string) => [
  { value: 'AND', children: [{ on: 'tenant', field: 'identifier', operator: 'EQUAL', value: identifier }] },
];

type Integration = { _id: string; primary: boolean; conditions: unknown[]; identifier: string };

describe('integration conditions (per-tenant providers)', () => {
  let t: TestApp;
  let receiver: ProviderReceiver;

  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_MAX_ATTEMPTS: '1', PROVIDER_BACKOFF_MS: '10' } });
    receiver = await startProviderReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  /** A fresh environment with a subscriber, a tenant `acme` and a workflow of one step. */
  async function environment(step: Record<string, unknown>) {
    const base = await createProviderEnvironment(t, receiver, {
      workflowIdentifier: 'routed',
      step,
      subscribers: [{ subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com' }],
    });
    const tenant = await t.api('post', '/v1/tenants', base.apiKey).send({ identifier: 'acme', name: 'Acme' });
    expect(tenant.status).toBe(201);
    const trigger = async (extra: Record<string, unknown> = {}) => {
      const before = receiver.requests.length;
      const { transactionId, jobs } = await triggerWithKeyAndSettle(t, base.apiKey, {
        name: 'routed',
        to: 'ada',
        ...extra,
      });
      return {
        job: jobs[0],
        details: await detailsOf(t, jobs[0].id),
        messages: await messagesOf(t, transactionId),
        paths: receiver.requests.slice(before).map((request) => request.path),
      };
    };
    return { ...base, trigger };
  }

  it("an acme trigger goes through acme's integration; one without tenant goes through the primary", async () => {
    const env = await environment(EMAIL_STEP);
    const primary = await env.sendgrid('sg-primary');
    const acme = await env.sendgrid('sg-acme', { conditions: tenantIs('acme') });
    expect(primary.primary).toBe(true);
    expect(acme.primary).toBe(false);

    const forAcme = await env.trigger({ tenant: 'acme' });
    expect(forAcme.job.status).toBe('completed');
    expect(forAcme.paths).toEqual(['/sg-acme/v3/mail/send']);
    expect(forAcme.details.map((detail) => detail.detail)).toContain(
      'Integration sg-acme (sendgrid) chosen: conditions matched for tenant acme',
    );
    expect(forAcme.messages[0]).toMatchObject({ status: 'sent', providerId: 'sendgrid' });

    const plain = await env.trigger();
    expect(plain.job.status).toBe('completed');
    expect(plain.paths).toEqual(['/sg-primary/v3/mail/send']);
    expect(plain.details.map((detail) => detail.detail)).toContain(
      'Integration sg-primary (sendgrid) chosen: no conditions matched, it is the primary integration',
    );
  });

  it('conditions read tenant data and the payload', async () => {
    const env = await environment(EMAIL_STEP);
    await env.sendgrid('sg-default');
    await env.sendgrid('sg-eu', {
      conditions: [
        {
          value: 'OR',
          children: [
            { on: 'tenant', field: 'data.region', operator: 'EQUAL', value: 'eu' },
            { on: 'payload', field: 'region', operator: 'EQUAL', value: 'eu' },
          ],
        },
      ],
    });
    expect((await t.api('patch', '/v1/tenants/acme', env.apiKey).send({ data: { region: 'eu' } })).status).toBe(200);
    expect((await env.trigger({ tenant: 'acme' })).paths).toEqual(['/sg-eu/v3/mail/send']);
    expect((await env.trigger({ payload: { region: 'eu' } })).paths).toEqual(['/sg-eu/v3/mail/send']);
    expect((await env.trigger({ payload: { region: 'us' } })).paths).toEqual(['/sg-default/v3/mail/send']);
  });

  it('a failing conditioned integration fails over to the primary', async () => {
    const env = await environment(EMAIL_STEP);
    await env.sendgrid('sg-main');
    await env.sendgrid('sg-tenant', { conditions: tenantIs('acme') });
    receiver.queue.push({ status: 400, body: { errors: [{ message: 'bad request' }] } });
    const { job, paths, details, messages } = await env.trigger({ tenant: 'acme' });
    expect(paths).toEqual(['/sg-tenant/v3/mail/send', '/sg-main/v3/mail/send']);
    expect(job.status).toBe('completed');
    expect(details.map((detail) => detail.detail)).toEqual(
      expect.arrayContaining([
        'Integration sg-tenant (sendgrid) chosen: conditions matched for tenant acme',
        'Failing over to integration sg-main (sendgrid)',
        'Message sent through integration sg-main (sendgrid)',
      ]),
    );
    expect(messages[0]).toMatchObject({ status: 'sent' });
  });

  it('only conditioned integrations, none matching: the step fails, nothing is sent', async () => {
    const env = await environment(EMAIL_STEP);
    await env.sendgrid('sg-only-acme', { conditions: tenantIs('acme') });
    const { job, paths, details } = await env.trigger();
    expect(paths).toEqual([]);
    expect(job.status).toBe('failed');
    expect(details.map((detail) => detail.detail)).toContain(
      'No active email integration serves this message: the conditions of every one failed',
    );
  });

  it('chat: an integration with conditions is used only when they pass', async () => {
    const env = await environment(CHAT_STEP);
    await env.integration({
      providerId: 'chat-webhook',
      channel: 'chat',
      identifier: 'hook-acme',
      conditions: tenantIs('acme'),
    });
    const patched = await t
      .api('patch', '/v1/subscribers/ada/credentials', env.apiKey)
      .send({ providerId: 'chat-webhook', credentials: { webhookUrl: `${receiver.url}/chat-hook` } });
    expect(patched.status).toBe(200);

    const plain = await env.trigger();
    expect(plain.paths).toEqual([]);
    expect(plain.job.status).toBe('skipped');
    expect(plain.details.map((detail) => detail.detail).join('\n')).toContain(
      'Integration hook-acme (chat-webhook) skipped: its conditions did not match',
    );

    const forAcme = await env.trigger({ tenant: 'acme' });
    expect(forAcme.paths).toEqual(['/chat-hook']);
    expect(forAcme.job.status).toBe('completed');
    expect(forAcme.details.map((detail) => detail.detail)).toContain(
      'Integration hook-acme (chat-webhook) chosen: conditions matched for tenant acme',
    );
  });

  it('conditions and primary clear each other', async () => {
    const env = await environment(EMAIL_STEP);
    const first = await env.sendgrid('sg-first');
    const second = await env.sendgrid('sg-second');
    expect(first.primary).toBe(true);

    // Conditions on the primary: it stops being primary and the next one takes the role.
    const conditioned = await t
      .api('put', `/v1/integrations/${first._id}`, env.apiKey)
      .send({ conditions: tenantIs('acme') });
    expect(conditioned.status).toBe(200);
    expect(conditioned.body).toMatchObject({ primary: false, conditions: tenantIs('acme') });
    const list = await t.api('get', '/v1/integrations', env.apiKey);
    expect(list.body.find((row: Integration) => row._id === second._id)).toMatchObject({ primary: true });

    // set-primary on a conditioned integration drops its conditions.
    const promoted = await t.api('post', `/v1/integrations/${first._id}/set-primary`, env.apiKey);
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ primary: true, conditions: [] });
    const after = await t.api('get', '/v1/integrations', env.apiKey);
    expect(after.body.find((row: Integration) => row._id === second._id)).toMatchObject({ primary: false });
  });

  it('a first integration created with conditions is not primary', async () => {
    const env = await environment(EMAIL_STEP);
    const conditioned = await env.sendgrid('sg-cond', { conditions: tenantIs('acme') });
    expect(conditioned).toMatchObject({ primary: false });
    const plain = await env.sendgrid('sg-plain');
    expect(plain).toMatchObject({ primary: true });
  });

  it.each([
    [
      [{ value: 'AND', children: [{ on: 'account', field: 'x', operator: 'EQUAL', value: 'y' }] }],
      'conditions[0].children[0].on',
    ],
    [
      [{ value: 'AND', children: [{ on: 'tenant', field: '', operator: 'EQUAL', value: 'y' }] }],
      'conditions[0].children[0].field',
    ],
    [
      [{ value: 'AND', children: [{ on: 'tenant', field: 'identifier', operator: 'EQUAL', value: 7 }] }],
      'conditions[0].children[0].value',
    ],
    [[{ value: 'AND', children: 'tenant' }], 'conditions[0].children'],
    [
      [{ value: 'AND', children: [{ on: 'tenant', field: 'name', operator: 'EQUAL', value: 'Acme' }] }],
      'conditions[0].children[0].field',
    ],
    [Array(21).fill({ value: 'AND', children: [] }), 'conditions'],
  ])('422 naming the field of a bad condition (%#)', async (conditions, field) => {
    const env = await environment(EMAIL_STEP);
    const created = await t
      .api('post', '/v1/integrations', env.apiKey)
      .send({ providerId: 'sendgrid', channel: 'email', conditions });
    expect(created.status).toBe(422);
    expect(Object.keys(created.body.errors)).toContain(field);
    const target = await env.sendgrid('sg-target');
    const updated = await t.api('put', `/v1/integrations/${target._id}`, env.apiKey).send({ conditions });
    expect(updated.status).toBe(422);
    expect(Object.keys(updated.body.errors)).toContain(field);
  });
});
