import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { EnvironmentRepository, subscribers } from '#dal';
import { connected, openInboxSocket, type RecordedSocket } from '../support/inbox-socket.js';
import type { Body } from '../support/untyped-json.js';
import { sleep, waitFor } from '../support/wait.js';
import { createInboxWorkflow, deliver, postSession, sessionToken, startInboxApp, type InboxApp } from './inbox-app.js';

const hmac = (key: string, subscriberId: string) => createHmac('sha256', key).update(subscriberId).digest('hex');

/**
 * An inbox session ends with what authorised it: its subscriber's deletion (even when the id is
 * reused), and HMAC becoming required for a session that proved nothing. Over HTTP and the socket.
 */
describe('inbox sessions end with their subscriber and with HMAC', () => {
  let app: InboxApp;
  let environments: EnvironmentRepository;
  let workflowId: string;
  const open: RecordedSocket[] = [];

  const list = (token: string) =>
    fetch(`${app.url}/v1/inbox/notifications`, { headers: { Authorization: `Bearer ${token}` } });
  const readAll = (token: string) =>
    fetch(`${app.url}/v1/inbox/notifications/read`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  const deleteSubscriber = async (subscriberId: string) =>
    expect((await app.t.api('delete', `/v2/subscribers/${subscriberId}`)).status).toBe(200);
  const createSubscriber = async (body: Body) =>
    expect((await app.t.api('post', '/v2/subscribers').send(body)).status).toBe(201);
  const stored = async (subscriberId: string) => {
    const [row] = await app.t.db
      .select()
      .from(subscribers)
      .where(and(eq(subscribers.environmentId, app.t.environment.id), eq(subscribers.subscriberId, subscriberId)));
    return row;
  };
  const socketOf = (token: string) => {
    const recorded = openInboxSocket(app.url, token);
    open.push(recorded);
    return recorded;
  };
  const disconnected = (recorded: RecordedSocket) =>
    waitFor(() => !recorded.socket.connected, { timeoutMs: 8_000, description: 'the server to close the socket' });
  const proveSession = async (subscriberId: string) => {
    const res = await postSession(app, {
      subscriber: { subscriberId },
      subscriberHash: hmac(app.t.apiKey, subscriberId),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { token: string } }).data.token;
  };

  beforeAll(async () => {
    app = await startInboxApp();
    environments = app.t.app.get(EnvironmentRepository);
    workflowId = (await createInboxWorkflow(app.t, 'session-endings')).identifier;
  });
  afterAll(async () => {
    for (const recorded of open) recorded.close();
    await app?.close();
  });

  describe('deleting a subscriber', () => {
    it("ends its tokens for good: recreating the id does not hand the old token the new person's inbox", async () => {
      await createSubscriber({ subscriberId: 'dave', email: 'dave@example.com' });
      const oldToken = await sessionToken(app, 'dave');
      expect((await list(oldToken)).status).toBe(200);

      await deleteSubscriber('dave');
      expect((await list(oldToken)).status).toBe(401);
      await createSubscriber({ subscriberId: 'dave', email: 'dave2@example.com' });
      await deliver(app.t, workflowId, 'dave', 1);

      const res = await list(oldToken);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ statusCode: 401, message: expect.stringMatching(/no longer exists/) });
      expect((await readAll(oldToken)).status).toBe(401);
      // The new person's own session sees their notification.
      const fresh = await list(await sessionToken(app, 'dave'));
      expect(fresh.status).toBe(200);
      expect(((await fresh.json()) as { data: unknown[] }).data).toHaveLength(1);
    });

    it('refuses a socket for an old token, closes the one open across the delete, and never marks the new person online', async () => {
      await createSubscriber({ subscriberId: 'dora' });
      const oldToken = await sessionToken(app, 'dora');
      const acrossDelete = socketOf(oldToken);
      await connected(acrossDelete);
      await waitFor(async () => (await stored('dora')).isOnline === true, { description: 'dora online' });

      await deleteSubscriber('dora');
      await disconnected(acrossDelete);
      await expect(connected(socketOf(oldToken))).rejects.toThrow(/Unauthorized/);

      await createSubscriber({ subscriberId: 'dora', email: 'dora2@example.com' });
      await expect(connected(socketOf(oldToken))).rejects.toThrow(/Unauthorized/);
      await deliver(app.t, workflowId, 'dora', 2);
      await sleep(300);
      expect(acrossDelete.events.filter((event) => event.name === 'notification_received')).toEqual([]);
      const restored = await stored('dora');
      expect(restored.isOnline).toBe(false);
      expect(restored.deleted).toBe(false);
    });
  });

  describe('HMAC required after sessions opened without a hash', () => {
    afterEach(async () => {
      await environments.setRequireHmac(app.t.environment.id, false);
      const inApp = await app.t.api('get', '/v1/integrations');
      for (const integration of inApp.body as Body[])
        if (integration.channel === 'in_app')
          await app.t.api('delete', `/v1/integrations/${integration._id as string}`).expect(200);
    });

    it('by the environment (what the operator CLI sets): hashless tokens are refused at once, proven ones go on', async () => {
      const hashless = await sessionToken(app, 'hugo');
      const proven = await proveSession('hana');
      const socket = socketOf(hashless);
      await connected(socket);

      await environments.setRequireHmac(app.t.environment.id, true);
      const res = await list(hashless);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ message: expect.stringMatching(/requires a subscriberHash/) });
      expect((await readAll(hashless)).status).toBe(401);
      expect((await list(proven)).status).toBe(200);
      await disconnected(socket);
      await expect(connected(socketOf(hashless))).rejects.toThrow(/requires a subscriberHash/);
      await connected(socketOf(proven));
    });

    it("by an active in_app integration's credentials.hmac (Novu's switch), with no restart", async () => {
      const hashless = await sessionToken(app, 'iris');
      const socket = socketOf(hashless);
      await connected(socket);
      const created = await app.t
        .api('post', '/v1/integrations')
        .send({ providerId: 'novu', channel: 'in_app', credentials: { hmac: true }, active: true });
      expect(created.status).toBe(201);

      expect((await list(hashless)).status).toBe(401);
      expect((await readAll(hashless)).status).toBe(401);
      await disconnected(socket);
      // Turned off again, the same token works: it was refused for the switch, not revoked.
      await app.t.api('put', `/v1/integrations/${created.body._id as string}`).send({ credentials: { hmac: false } });
      expect((await list(hashless)).status).toBe(200);
    });

    it('ends a session proven with a hash of an API key once that key is revoked, over HTTP and the socket', async () => {
      const created = await app.t.api('post', `/v1/environments/${app.t.environment.id}/api-keys`);
      expect(created.status).toBe(201);
      const { _id: keyId, key } = created.body as { _id: string; key: string };
      const res = await postSession(app, { subscriber: { subscriberId: 'kira' }, subscriberHash: hmac(key, 'kira') });
      expect(res.status).toBe(201);
      const provenByRevoked = ((await res.json()) as { data: { token: string } }).data.token;
      const provenByKept = await proveSession('kim');
      await environments.setRequireHmac(app.t.environment.id, true);
      const socket = socketOf(provenByRevoked);
      await connected(socket);
      expect((await list(provenByRevoked)).status).toBe(200);

      const revoked = await app.t.api('delete', `/v1/environments/${app.t.environment.id}/api-keys/${keyId}`);
      expect(revoked.status).toBe(200);
      const refused = await list(provenByRevoked);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ message: expect.stringMatching(/was revoked/) });
      expect((await readAll(provenByRevoked)).status).toBe(401);
      await disconnected(socket);
      await expect(connected(socketOf(provenByRevoked))).rejects.toThrow(/was revoked/);
      // The session proven with the key that stays, and the subscriber, are untouched.
      expect((await list(provenByKept)).status).toBe(200);
      expect(
        (await postSession(app, { subscriber: { subscriberId: 'kira' }, subscriberHash: hmac(key, 'kira') })).status,
      ).toBe(401);
    });
  });

  describe('a session without a hash, for a deleted subscriber', () => {
    it('is refused and restores nothing: no row, no field, no message', async () => {
      await createSubscriber({
        subscriberId: 'erin',
        email: 'erin@example.com',
        phone: '+15550100',
        data: { plan: 'gold' },
      });
      await deliver(app.t, workflowId, 'erin', 3);
      await deleteSubscriber('erin');
      const before = await stored('erin');

      const res = await postSession(app, { subscriber: { subscriberId: 'erin', email: 'attacker@example.com' } });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ statusCode: 403, message: expect.stringMatching(/was deleted/) });
      expect(await stored('erin')).toEqual(before);
      expect((await app.t.api('get', '/v2/subscribers/erin')).status).toBe(404);
      expect((await postSession(app, { subscriberId: 'erin' })).status).toBe(403);
    });

    it('proven with a hash, restores the subscriber as the API would', async () => {
      await createSubscriber({ subscriberId: 'enzo' });
      await deleteSubscriber('enzo');
      const token = await proveSession('enzo');
      expect((await list(token)).status).toBe(200);
      expect((await stored('enzo')).deleted).toBe(false);
    });
  });
});
