import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { integrations } from '#dal';
import { startTestApp, type TestApp } from './support/test-app.js';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

type Integration = Record<string, unknown> & { _id: string; primary: boolean; active: boolean };

describe('spec operations 4-5: set-primary and active integrations', () => {
  let t: TestApp;

  const create = async (body: Record<string, unknown>, key?: string): Promise<Integration> => {
    const res = await t.api('post', '/v1/integrations', key).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const setPrimary = (id: string, key?: string) => t.api('post', `/v1/integrations/${id}/set-primary`, key);
  const rowsOf = (environmentId: string, channel: string) =>
    t.db
      .select()
      .from(integrations)
      .where(and(eq(integrations.environmentId, environmentId), eq(integrations.channel, channel)));

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST /v1/integrations/{integrationId}/set-primary', () => {
    it('200: demotes the previous primary of the environment and channel, the target becomes primary', async () => {
      const env = await t.createForeignKey();
      const first = await create({ providerId: 'sendgrid', channel: 'email' }, env.apiKey);
      const second = await create({ providerId: 'mailgun', channel: 'email' }, env.apiKey);
      const sms = await create({ providerId: 'twilio', channel: 'sms' }, env.apiKey);
      expect(first.primary).toBe(true);

      const res = await setPrimary(second._id, env.apiKey);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        _id: second._id,
        primary: true,
        active: true,
        channel: 'email',
        providerId: 'mailgun',
        credentials: {},
      });

      const rows = await rowsOf(env.environment.id, 'email');
      expect(rows.find((row) => row.id === first._id)?.primary).toBe(false);
      expect(rows.filter((row) => row.primary).map((row) => row.id)).toEqual([second._id]);
      // The new primary leads the failover order.
      const priorities = Object.fromEntries(rows.map((row) => [row.id, row.priority]));
      expect(priorities[second._id]).toBeGreaterThan(priorities[first._id]);
      // Another channel is untouched.
      expect((await rowsOf(env.environment.id, 'sms')).find((row) => row.id === sms._id)?.primary).toBe(true);
    });

    it('activates an inactive target', async () => {
      const env = await t.createForeignKey();
      await create({ providerId: 'twilio', channel: 'sms' }, env.apiKey);
      const inactive = await create({ providerId: 'plivo', channel: 'sms', active: false }, env.apiKey);
      const res = await setPrimary(inactive._id, env.apiKey);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ active: true, primary: true });
      expect((await rowsOf(env.environment.id, 'sms')).filter((row) => row.primary).map((row) => row.id)).toEqual([
        inactive._id,
      ]);
    });

    it('is idempotent: calling it again changes nothing', async () => {
      const env = await t.createForeignKey();
      await create({ providerId: 'sendgrid', channel: 'email' }, env.apiKey);
      const target = await create({ providerId: 'mailgun', channel: 'email' }, env.apiKey);
      const once = await setPrimary(target._id, env.apiKey);
      const before = await rowsOf(env.environment.id, 'email');
      const twice = await setPrimary(target._id, env.apiKey);
      expect(twice.status).toBe(200);
      expect(twice.body).toEqual(once.body);
      expect(await rowsOf(env.environment.id, 'email')).toEqual(before);
    });

    it('works for channels without automatic primary (chat)', async () => {
      const env = await t.createForeignKey();
      const slack = await create({ providerId: 'slack', channel: 'chat' }, env.apiKey);
      const discord = await create({ providerId: 'discord', channel: 'chat' }, env.apiKey);
      expect((await setPrimary(slack._id, env.apiKey)).body.primary).toBe(true);
      expect((await setPrimary(discord._id, env.apiKey)).body.primary).toBe(true);
      expect((await rowsOf(env.environment.id, 'chat')).filter((row) => row.primary).map((row) => row.id)).toEqual([
        discord._id,
      ]);
    });

    it('does not touch the primary of another environment', async () => {
      const production = await t.createKeyFor('Production');
      const prodPrimary = await create(
        { providerId: 'sendgrid', channel: 'email', identifier: 'prod-primary' },
        production.apiKey,
      );
      const devFirst = await create({ providerId: 'sendgrid', channel: 'email', identifier: 'dev-first' });
      const devSecond = await create({ providerId: 'mailgun', channel: 'email', identifier: 'dev-second' });
      expect(devFirst.primary).toBe(true);
      expect((await setPrimary(devSecond._id)).status).toBe(200);
      const prodRows = await rowsOf(prodPrimary._environmentId as string, 'email');
      expect(prodRows.find((row) => row.id === prodPrimary._id)?.primary).toBe(true);
    });

    it('scopes the id to the key environment: a Production key gets 404 for a Development integration, which stays as it was', async () => {
      const production = await t.createKeyFor('Production');
      const devSms = await create({ providerId: 'sns', channel: 'sms', identifier: 'dev-sns', active: false });
      const res = await setPrimary(devSms._id, production.apiKey);
      expect(res.status).toBe(404);
      expect((await rowsOf(t.environment.id, 'sms')).find((row) => row.id === devSms._id)).toMatchObject({
        primary: false,
        active: false,
      });
    });

    it('two concurrent calls for two integrations of one channel leave exactly one primary', async () => {
      const env = await t.createForeignKey();
      const a = await create({ providerId: 'sendgrid', channel: 'email' }, env.apiKey);
      const b = await create({ providerId: 'mailgun', channel: 'email' }, env.apiKey);
      const c = await create({ providerId: 'postmark', channel: 'email', active: false }, env.apiKey);
      for (let round = 0; round < 5; round++) {
        const [first, second] = round % 2 ? [b, c] : [c, a];
        const results = await Promise.all([setPrimary(first._id, env.apiKey), setPrimary(second._id, env.apiKey)]);
        expect(results.map((res) => res.status)).toEqual([200, 200]);
        const primaries = (await rowsOf(env.environment.id, 'email')).filter((row) => row.primary && !row.deleted);
        expect(primaries).toHaveLength(1);
        expect([first._id, second._id]).toContain(primaries[0].id);
      }
    });

    it('404 for an unknown id, a deleted integration and another organization; 422 for a malformed id; 401 without a key', async () => {
      const foreign = await t.createForeignKey();
      const mine = await create({ providerId: 'fcm', channel: 'push' });
      const theirs = await create({ providerId: 'fcm', channel: 'push' }, foreign.apiKey);

      const unknown = await setPrimary(UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(`Integration with id ${UNKNOWN_ID} not found`);
      expect((await setPrimary(theirs._id)).status).toBe(404);
      expect((await setPrimary(mine._id, foreign.apiKey)).status).toBe(404);

      const gone = await create({ providerId: 'apns', channel: 'push' });
      await t.api('delete', `/v1/integrations/${gone._id}`).expect(200);
      expect((await setPrimary(gone._id)).status).toBe(404);

      for (const malformed of ['not-an-id', '123', `${UNKNOWN_ID}x`]) {
        const res = await setPrimary(malformed);
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toEqual(['integrationId']);
      }
      expect((await t.http.post(`/v1/integrations/${mine._id}/set-primary`)).status).toBe(401);
      expect((await rowsOf(foreign.environment.id, 'push'))[0].primary).toBe(false);
    });
  });

  describe('GET /v1/integrations/active', () => {
    it('200: active, non-deleted integrations of every environment of the organization, none of another one', async () => {
      const organization = await t.createForeignKey();
      const orgId = organization.environment.organizationId;
      const dev = await create(
        { providerId: 'sendgrid', channel: 'email', credentials: { apiKey: 'SG.active' } },
        organization.apiKey,
      );
      const inactive = await create({ providerId: 'mailgun', channel: 'email', active: false }, organization.apiKey);
      const deleted = await create({ providerId: 'slack', channel: 'chat' }, organization.apiKey);
      await t.api('delete', `/v1/integrations/${deleted._id}`, organization.apiKey).expect(200);
      const other = await t.createForeignKey();
      const outsider = await create({ providerId: 'twilio', channel: 'sms' }, other.apiKey);

      const res = await t.api('get', '/v1/integrations/active', organization.apiKey);
      expect(res.status).toBe(200);
      const ids = (res.body as Integration[]).map((row) => row._id);
      expect(ids).toContain(dev._id);
      expect(ids).not.toContain(inactive._id);
      expect(ids).not.toContain(deleted._id);
      expect(ids).not.toContain(outsider._id);
      expect(
        (res.body as Integration[]).every(
          (row) => row.active && row._organizationId === orgId && row.deleted === false,
        ),
      ).toBe(true);
      expect((res.body as Integration[]).find((row) => row._id === dev._id)?.credentials).toEqual({
        apiKey: 'SG.active',
      });
    });

    it('spans Development and Production of the organization', async () => {
      const production = await t.createKeyFor('Production');
      const dev = await create({ providerId: 'expo', channel: 'push', identifier: 'active-dev' });
      const prod = await create({ providerId: 'expo', channel: 'push', identifier: 'active-prod' }, production.apiKey);
      for (const key of [t.apiKey, production.apiKey]) {
        const ids = ((await t.api('get', '/v1/integrations/active', key)).body as Integration[]).map((row) => row._id);
        expect(ids).toEqual(expect.arrayContaining([dev._id, prod._id]));
      }
      const foreign = await t.createForeignKey();
      const foreignIds = ((await t.api('get', '/v1/integrations/active', foreign.apiKey)).body as Integration[]).map(
        (row) => row._id,
      );
      expect(foreignIds).not.toContain(dev._id);
      expect(foreignIds).not.toContain(prod._id);
    });

    it("shows credentials only of the caller's environment: another environment's integrations come with credentials {}", async () => {
      const production = await t.createKeyFor('Production');
      const dev = await create({
        providerId: 'sendgrid',
        channel: 'email',
        identifier: 'secret-dev',
        credentials: { apiKey: 'SG.dev-secret' },
      });
      const prod = await create(
        {
          providerId: 'nodemailer',
          channel: 'email',
          identifier: 'secret-prod',
          credentials: { host: 'smtp.prod.test', user: 'prod', password: 'prod-secret' },
        },
        production.apiKey,
      );
      const devView = (await t.api('get', '/v1/integrations/active')).body as Integration[];
      expect(devView.find((row) => row._id === dev._id)?.credentials).toEqual({ apiKey: 'SG.dev-secret' });
      expect(devView.find((row) => row._id === prod._id)).toMatchObject({ identifier: 'secret-prod' });
      expect(devView.find((row) => row._id === prod._id)?.credentials).toEqual({});
      const prodView = await t.api('get', '/v1/integrations/active', production.apiKey);
      expect(prodView.status).toBe(200);
      expect((prodView.body as Integration[]).find((row) => row._id === prod._id)?.credentials).toEqual({
        host: 'smtp.prod.test',
        user: 'prod',
        password: 'prod-secret',
      });
      expect((prodView.body as Integration[]).find((row) => row._id === dev._id)).toMatchObject({
        identifier: 'secret-dev',
      });
      expect((prodView.body as Integration[]).find((row) => row._id === dev._id)?.credentials).toEqual({});
      expect(JSON.stringify(devView)).not.toContain('prod-secret');
      expect(JSON.stringify(prodView.body)).not.toContain('SG.dev-secret');
    });

    it('[] for an organization without integrations; 401 without a key', async () => {
      const empty = await t.createForeignKey();
      const res = await t.api('get', '/v1/integrations/active', empty.apiKey);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect((await t.http.get('/v1/integrations/active')).status).toBe(401);
    });
  });
});
