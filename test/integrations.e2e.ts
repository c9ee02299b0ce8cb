import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { integrations } from '#dal';
import { startTestApp, type TestApp } from './support/test-app.js';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('integrations: POST/GET/PUT/DELETE /v1/integrations', () => {
  let t: TestApp;
  let production: { apiKey: string };
  let foreign: { apiKey: string };

  const create = async (body: Record<string, unknown>, key?: string) => {
    const res = await t.api('post', '/v1/integrations', key).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const list = async (key?: string) =>
    (await t.api('get', '/v1/integrations', key)).body as Array<Record<string, unknown>>;
  const byId = async (id: string, key?: string) => (await list(key)).find((row) => row._id === id);

  beforeAll(async () => {
    t = await startTestApp();
    production = await t.createKeyFor('Production');
    foreign = await t.createForeignKey();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST /v1/integrations', () => {
    it('creates an integration with defaults, the first active email one primary', async () => {
      const res = await t
        .api('post', '/v1/integrations')
        .send({ providerId: 'sendgrid', channel: 'email', credentials: { apiKey: 'SG.first', from: 'a@b.c' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        providerId: 'sendgrid',
        channel: 'email',
        name: 'sendgrid',
        active: true,
        primary: true,
        deleted: false,
        credentials: { apiKey: 'SG.first', from: 'a@b.c' },
        configurations: {},
        conditions: [],
        _environmentId: t.environment.id,
        _organizationId: t.environment.organizationId,
      });
      // Absent until deleted, never null (Novu's clients reject null there).
      expect(res.body).not.toHaveProperty('deletedAt');
      expect(res.body).not.toHaveProperty('deletedBy');
      expect(res.body.identifier).toMatch(/^sendgrid-[0-9a-f]{6}$/);
      expect(typeof res.body._id).toBe('string');
      expect(typeof res.body.createdAt).toBe('string');
    });

    it('a second active email integration is not primary; the first of another channel is not primary either', async () => {
      const second = await create({
        providerId: 'mailgun',
        channel: 'email',
        identifier: 'mailgun-main',
        name: 'Mailgun',
      });
      expect(second).toMatchObject({ identifier: 'mailgun-main', name: 'Mailgun', primary: false, active: true });
      const chat = await create({ providerId: 'slack', channel: 'chat' });
      expect(chat.primary).toBe(false);
      const sms = await create({ providerId: 'twilio', channel: 'sms' });
      expect(sms.primary).toBe(true);
    });

    it('an inactive first integration of a channel is not primary', async () => {
      const inactive = await create({ providerId: 'twilio', channel: 'sms', active: false }, production.apiKey);
      expect(inactive).toMatchObject({ active: false, primary: false });
      const active = await create({ providerId: 'twilio', channel: 'sms' }, production.apiKey);
      expect(active.primary).toBe(true);
    });

    it('stores the credentials encrypted and returns them decrypted', async () => {
      const created = await create({
        providerId: 'smtp',
        channel: 'email',
        identifier: 'smtp-secret',
        credentials: {
          user: 'mailer',
          password: 'hunter2-very-secret',
          host: 'smtp.local',
          port: '2525',
          secure: false,
        },
        configurations: { inboundWebhookEnabled: true },
      });
      const [raw] = await t.db.select().from(integrations).where(eq(integrations.id, created._id));
      expect(raw.credentials).toMatch(/^v1:/);
      expect(raw.credentials).not.toContain('hunter2');
      expect(raw.credentials).not.toContain('mailer');
      expect(JSON.stringify(raw)).not.toContain('hunter2-very-secret');
      expect(created.credentials).toEqual({
        user: 'mailer',
        password: 'hunter2-very-secret',
        host: 'smtp.local',
        port: '2525',
        secure: false,
      });
      expect(created.configurations).toEqual({ inboundWebhookEnabled: true });
      expect((await byId(created._id))?.credentials).toEqual(created.credentials);
    });

    it('drops credential fields the spec does not define', async () => {
      const created = await create({
        providerId: 'postmark',
        channel: 'email',
        credentials: { apiKey: 'k', notAField: 'x' },
      });
      expect(created.credentials).toEqual({ apiKey: 'k' });
    });

    it('accepts conditions in the StepFilter shape', async () => {
      const conditions = [
        {
          isNegated: false,
          type: 'GROUP',
          value: 'AND',
          children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'payload' }],
        },
      ];
      const created = await create({ providerId: 'resend', channel: 'email', conditions });
      expect(created.conditions).toEqual(conditions);
    });

    it('409 on a duplicate identifier in the environment, allowed in another environment', async () => {
      await create({ providerId: 'slack', channel: 'chat', identifier: 'dup-id' });
      const res = await t
        .api('post', '/v1/integrations')
        .send({ providerId: 'discord', channel: 'chat', identifier: 'dup-id' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
      await create({ providerId: 'slack', channel: 'chat', identifier: 'dup-id' }, production.apiKey);
    });

    it.each([
      ['missing providerId', { channel: 'email' }, 'providerId'],
      ['empty providerId', { providerId: '', channel: 'email' }, 'providerId'],
      ['missing channel', { providerId: 'sendgrid' }, 'channel'],
      ['unknown channel', { providerId: 'sendgrid', channel: 'fax' }, 'channel'],
      ['non-boolean active', { providerId: 'sendgrid', channel: 'email', active: 'yes' }, 'active'],
      ['identifier with spaces', { providerId: 'sendgrid', channel: 'email', identifier: 'has spaces' }, 'identifier'],
      [
        'non-string credential',
        { providerId: 'sendgrid', channel: 'email', credentials: { apiKey: 42 } },
        'credentials.apiKey',
      ],
      [
        'non-boolean credential flag',
        { providerId: 'smtp', channel: 'email', credentials: { secure: 'no' } },
        'credentials.secure',
      ],
      ['non-object credentials', { providerId: 'sendgrid', channel: 'email', credentials: 'secret' }, 'credentials'],
      ['conditions not an array', { providerId: 'sendgrid', channel: 'email', conditions: {} }, 'conditions'],
      [
        'unknown filter operator',
        {
          providerId: 'sendgrid',
          channel: 'email',
          conditions: [{ value: 'AND', children: [{ field: 'a', value: 'b', operator: 'ROUGHLY', on: 'payload' }] }],
        },
        'conditions[0].children[0].operator',
      ],
      [
        'bad filter value',
        { providerId: 'sendgrid', channel: 'email', conditions: [{ value: 'XOR', children: [] }] },
        'conditions[0].value',
      ],
      [
        'an SES region that names another host',
        { providerId: 'ses', channel: 'email', credentials: { region: 'evil.test:8443/#' } },
        'credentials.region',
      ],
      [
        'an SNS region with userinfo',
        { providerId: 'sns', channel: 'sms', credentials: { region: 'x@127.0.0.1:9/#' } },
        'credentials.region',
      ],
      [
        'an SNS region that is not one',
        { providerId: 'sns', channel: 'sms', credentials: { region: 'us-east' } },
        'credentials.region',
      ],
      [
        'a Pusher Beams instanceId with dots',
        { providerId: 'pusher-beams', channel: 'push', credentials: { instanceId: 'evil.test' } },
        'credentials.instanceId',
      ],
    ])('422 on %s', async (_name, body, path) => {
      const res = await t.api('post', '/v1/integrations').send(body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(path);
    });

    it('a credential that becomes part of an API host is checked: AWS regions, a Pusher Beams instance id; nothing stored on 422', async () => {
      const env = await t.createForeignKey();
      const ses = await create(
        { providerId: 'ses', channel: 'email', credentials: { region: 'us-gov-west-1' } },
        env.apiKey,
      );
      expect(ses.credentials).toEqual({ region: 'us-gov-west-1' });
      await create({ providerId: 'sns', channel: 'sms', credentials: { region: 'ap-southeast-5' } }, env.apiKey);
      await create(
        {
          providerId: 'pusher-beams',
          channel: 'push',
          credentials: { instanceId: '8f9a6e22-2483-49aa-8552-125f1a4c5781' },
        },
        env.apiKey,
      );
      // `region` means something else to SendGrid (`eu`): only the providers that put it in a host check it.
      await create({ providerId: 'sendgrid', channel: 'email', credentials: { region: 'eu' } }, env.apiKey);
      const refused = await t.api('post', '/v1/integrations', env.apiKey).send({
        providerId: 'ses',
        channel: 'email',
        identifier: 'ses-evil',
        credentials: { region: 'evil.test:8443/#' },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors['credentials.region'].messages).toEqual([
        'region must be an AWS region such as us-east-1',
      ]);
      expect((await list(env.apiKey)).map((row) => row.identifier)).not.toContain('ses-evil');
    });

    it('401 without a key', async () => {
      expect((await t.http.post('/v1/integrations').send({ providerId: 'sendgrid', channel: 'email' })).status).toBe(
        401,
      );
      expect((await t.http.get('/v1/integrations')).status).toBe(401);
    });
  });

  describe('GET /v1/integrations', () => {
    it("lists only the key's environment", async () => {
      const mine = await create({ providerId: 'fcm', channel: 'push', identifier: 'fcm-listed' });
      expect((await list()).some((row) => row._id === mine._id)).toBe(true);
      expect((await list(production.apiKey)).some((row) => row._id === mine._id)).toBe(false);
      expect(await list(foreign.apiKey)).toEqual([]);
    });
  });

  describe('PUT /v1/integrations/{integrationId}', () => {
    it('updates only the given fields', async () => {
      const created = await create({
        providerId: 'sns',
        channel: 'sms',
        credentials: { accessKey: 'a', secretKey: 's' },
        active: false,
      });
      const renamed = await t.api('put', `/v1/integrations/${created._id}`).send({ name: 'Renamed' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({
        name: 'Renamed',
        identifier: created.identifier,
        credentials: { accessKey: 'a', secretKey: 's' },
        active: false,
      });
      expect(new Date(renamed.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.updatedAt).getTime());

      const recredentialed = await t
        .api('put', `/v1/integrations/${created._id}`)
        .send({ credentials: { accessKey: 'b' }, configurations: { inboundWebhookEnabled: false } });
      expect(recredentialed.body).toMatchObject({
        name: 'Renamed',
        credentials: { accessKey: 'b' },
        configurations: { inboundWebhookEnabled: false },
      });
      const [raw] = await t.db.select().from(integrations).where(eq(integrations.id, created._id));
      expect(raw.credentials).not.toContain('accessKey');
    });

    it('deactivating the primary hands primary to the next active integration of the channel', async () => {
      const env = await t.createForeignKey();
      const first = await create({ providerId: 'sendgrid', channel: 'email' }, env.apiKey);
      const second = await create({ providerId: 'mailgun', channel: 'email' }, env.apiKey);
      const res = await t.api('put', `/v1/integrations/${first._id}`, env.apiKey).send({ active: false });
      expect(res.body).toMatchObject({ active: false, primary: false });
      expect((await byId(second._id, env.apiKey))?.primary).toBe(true);
    });

    it('404 for an unknown id and for another environment', async () => {
      expect((await t.api('put', `/v1/integrations/${UNKNOWN_ID}`).send({ name: 'x' })).status).toBe(404);
      const mine = await create({ providerId: 'expo', channel: 'push' });
      expect((await t.api('put', `/v1/integrations/${mine._id}`, production.apiKey).send({ name: 'x' })).status).toBe(
        404,
      );
      expect((await t.api('put', `/v1/integrations/${mine._id}`, foreign.apiKey).send({ name: 'x' })).status).toBe(404);
      expect((await byId(mine._id))?.name).toBe('expo');
    });

    it('409 when the new identifier is taken', async () => {
      await create({ providerId: 'apns', channel: 'push', identifier: 'taken-one' });
      const other = await create({ providerId: 'apns', channel: 'push', identifier: 'free-one' });
      const res = await t.api('put', `/v1/integrations/${other._id}`).send({ identifier: 'taken-one' });
      expect(res.status).toBe(409);
    });

    it('422 on a malformed id or body, 400 on an empty update', async () => {
      const created = await create({ providerId: 'discord', channel: 'chat' });
      const malformed = await t.api('put', '/v1/integrations/not-an-id').send({ name: 'x' });
      expect(malformed.status).toBe(422);
      expect(Object.keys(malformed.body.errors)).toEqual(['integrationId']);
      for (const [body, path] of [
        [{ active: 'no' }, 'active'],
        [{ name: '' }, 'name'],
        [{ credentials: { token: 1 } }, 'credentials.token'],
        [
          { conditions: [{ value: 'AND', children: [{ field: 'a', value: 'b', operator: 'EQUAL', on: 'account' }] }] },
          'conditions[0].children[0].on',
        ],
        [{ conditions: null }, 'conditions'],
        [{ name: null }, 'name'],
        [{ active: null }, 'active'],
      ] as const) {
        const res = await t.api('put', `/v1/integrations/${created._id}`).send(body);
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toContain(path);
      }
      expect((await t.api('put', `/v1/integrations/${created._id}`).send({})).status).toBe(400);
    });

    it('422 naming credentials.region when an update gives SES or SNS a region that is not one; the stored credentials stay', async () => {
      for (const [providerId, channel] of [
        ['ses', 'email'],
        ['sns', 'sms'],
      ]) {
        const created = await create({
          providerId,
          channel,
          credentials: { accessKey: 'AKID', region: 'eu-west-1' },
          active: false,
        });
        const res = await t
          .api('put', `/v1/integrations/${created._id}`)
          .send({ credentials: { accessKey: 'AKID', region: 'evil.test:8443/#' } });
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toEqual(['credentials.region']);
        expect((await byId(created._id))?.credentials).toEqual({ accessKey: 'AKID', region: 'eu-west-1' });
        const fine = await t
          .api('put', `/v1/integrations/${created._id}`)
          .send({ credentials: { accessKey: 'AKID', region: 'eu-central-2' } });
        expect(fine.status).toBe(200);
      }
    });

    it('401 without a key', async () => {
      expect((await t.http.put(`/v1/integrations/${UNKNOWN_ID}`).send({ name: 'x' })).status).toBe(401);
    });
  });

  describe('DELETE /v1/integrations/{integrationId}', () => {
    it('soft deletes and promotes the next active integration of the channel by priority', async () => {
      const env = await t.createForeignKey();
      const a = await create({ providerId: 'twilio', channel: 'sms', identifier: 'a' }, env.apiKey);
      const b = await create({ providerId: 'plivo', channel: 'sms', identifier: 'b' }, env.apiKey);
      const c = await create({ providerId: 'sns', channel: 'sms', identifier: 'c' }, env.apiKey);
      // c becomes primary (and first in priority), then a: deleting c must promote a, not b.
      await t.api('post', `/v1/integrations/${c._id}/set-primary`, env.apiKey).expect(200);
      await t.api('post', `/v1/integrations/${a._id}/set-primary`, env.apiKey).expect(200);
      await t.api('post', `/v1/integrations/${c._id}/set-primary`, env.apiKey).expect(200);
      const res = await t.api('delete', `/v1/integrations/${c._id}`, env.apiKey);
      expect(res.status).toBe(200);
      // The answer is the environment's remaining integrations, as the list gives them.
      const remaining = await list(env.apiKey);
      expect(res.body).toEqual(remaining);
      expect(remaining.map((row) => row._id).sort()).toEqual([a._id, b._id].sort());
      expect(remaining.find((row) => row._id === a._id)?.primary).toBe(true);
      expect(remaining.find((row) => row._id === b._id)?.primary).toBe(false);

      const [raw] = await t.db.select().from(integrations).where(eq(integrations.id, c._id));
      expect(raw).toMatchObject({ deleted: true, primary: false });
      expect(raw.deletedAt).toBeInstanceOf(Date);
      expect(typeof raw.deletedBy).toBe('string');
    });

    it('404 for unknown, already deleted and other environments; 422 for a malformed id; 401 without a key', async () => {
      const mine = await create({ providerId: 'slack', channel: 'chat' });
      expect((await t.api('delete', `/v1/integrations/${mine._id}`, production.apiKey)).status).toBe(404);
      expect((await t.api('delete', `/v1/integrations/${mine._id}`, foreign.apiKey)).status).toBe(404);
      expect((await t.api('delete', `/v1/integrations/${mine._id}`)).status).toBe(200);
      expect((await t.api('delete', `/v1/integrations/${mine._id}`)).status).toBe(404);
      expect((await t.api('delete', `/v1/integrations/${UNKNOWN_ID}`)).status).toBe(404);
      expect((await t.api('delete', '/v1/integrations/123')).status).toBe(422);
      expect((await t.http.delete(`/v1/integrations/${mine._id}`)).status).toBe(401);
    });

    it('a deleted integration frees its identifier', async () => {
      const first = await create({ providerId: 'slack', channel: 'chat', identifier: 'reusable' });
      await t.api('delete', `/v1/integrations/${first._id}`).expect(200);
      const second = await create({ providerId: 'slack', channel: 'chat', identifier: 'reusable' });
      expect(second._id).not.toBe(first._id);
    });
  });
});
