import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SystemClock } from '#common';
import { connectInbox, type RecordedSocket } from '../support/inbox-socket.js';
import {
  apiCaller,
  ensureBuilt,
  freePort,
  startService,
  waitForHealthy,
  WORKER_MAIN,
  type ServiceProcess,
} from '../support/service-process.js';
import { emptyServerDatabase } from '../support/test-database.js';
import type { Body } from '../support/untyped-json.js';
import { waitFor } from '../support/wait.js';

const API_KEY = 'realtime-test-key-0123456789';
const ENCRYPTION_KEY = 'd'.repeat(64);

/**
 * Two api processes and a worker on one PostgreSQL database: a socket held by api A hears of a
 * trigger accepted by api B and delivered by the worker, through socket.io's Redis adapter (REDIS_URL)
 * or its PostgreSQL adapter (LISTEN/NOTIFY, queue on PostgreSQL too).
 */
describe.each([
  { transport: 'redis', redisUrl: 'redis://127.0.0.1:6379' },
  { transport: 'postgres', redisUrl: undefined },
])('realtime across processes ($transport)', ({ transport, redisUrl }) => {
  const database = emptyServerDatabase(`rt_${transport}`);
  const processes: ServiceProcess[] = [];
  const sockets: RecordedSocket[] = [];
  let apiA: string;
  let apiB: string;

  const call = apiCaller(API_KEY);
  const socketTo = async (api: string, subscriber: Body) => {
    const recorded = await connectInbox(api, ENCRYPTION_KEY, new SystemClock(), subscriber);
    sockets.push(recorded);
    return recorded;
  };
  const isOnline = async (subscriberId: string) =>
    (await call('GET', `${apiB}/v2/subscribers/${subscriberId}`)).body.isOnline;

  beforeAll(async () => {
    ensureBuilt();
    await database.create();
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      ENCRYPTION_KEY,
      API_KEY,
      QUEUE_PREFIX: `rt-${randomBytes(4).toString('hex')}`,
      RATE_LIMIT_ENABLED: 'false',
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    };
    // The api processes one after the other: the first boot seeds the database.
    const [portA, portB, portWorker] = [await freePort(), await freePort(), await freePort()];
    processes.push(startService({ ...env, ROLE: 'api' }, portA));
    await waitForHealthy(processes[0], 60_000);
    processes.push(startService({ ...env, ROLE: 'api' }, portB));
    processes.push(startService({ ...env, ROLE: 'worker' }, portWorker, WORKER_MAIN));
    await Promise.all(processes.map((service) => waitForHealthy(service, 60_000)));
    apiA = `http://127.0.0.1:${portA}`;
    apiB = `http://127.0.0.1:${portB}`;
  }, 120_000);

  afterAll(async () => {
    for (const recorded of sockets) recorded.close();
    for (const service of processes) expect(await service.stop()).toBe(0);
    await database.drop();
  });

  it('a socket on api A receives what api B accepted and the worker delivered, and the counts after a read on B', async () => {
    const workflow = await call('POST', `${apiB}/v1/workflows`, {
      name: `Realtime ${transport}`,
      steps: [
        {
          template: {
            type: 'in_app',
            content: 'Hi {{subscriber.firstName}}{{payload.padding}}',
            cta: { data: { url: '/x' } },
          },
        },
      ],
    });
    expect(workflow.status).toBe(201);
    const created = await call('POST', `${apiB}/v2/subscribers`, { subscriberId: `rt-${transport}`, firstName: 'Lin' });
    expect(created.status).toBe(201);
    const subscriber = created.body;
    const inbox = await socketTo(apiA, subscriber);
    await waitFor(async () => (await isOnline('rt-' + transport)) === true, { description: 'isOnline true' });

    const identifier = (workflow.body.triggers as { identifier: string }[])[0].identifier;
    const trigger = await call('POST', `${apiB}/v1/events/trigger`, { name: identifier, to: 'rt-' + transport });
    expect(trigger.status).toBe(201);
    const { message } = (await inbox.next('notification_received', 20_000)) as { message: Body };
    expect(message).toMatchObject({
      transactionId: trigger.body.transactionId,
      content: 'Hi Lin',
      cta: { data: { url: '/x' } },
      read: false,
    });
    expect((await inbox.next('unread_count_changed')).counts).toMatchObject({ total: 1 });

    const read = await call(
      'PATCH',
      `${apiB}/v2/subscribers/rt-${transport}/notifications/${message._id as string}/read`,
    );
    expect(read.status).toBe(200);
    expect(await inbox.next('unseen_count_changed')).toMatchObject({ unseenCount: 0 });
    expect((await inbox.next('unread_count_changed')).counts).toMatchObject({ total: 0 });

    // Larger than a NOTIFY can carry: the PostgreSQL transport sends it as an attachment row.
    const padding = 'x'.repeat(9_000);
    const large = await call('POST', `${apiB}/v1/events/trigger`, {
      name: identifier,
      to: 'rt-' + transport,
      payload: { padding },
    });
    expect(large.status).toBe(201);
    const received = (await inbox.next('notification_received', 20_000)) as { message: Body };
    expect(received.message.content).toBe(`Hi Lin${padding}`);
  }, 60_000);

  it('isOnline stays true while a socket is open on either api process, and turns false after the last', async () => {
    const created = await call('POST', `${apiB}/v2/subscribers`, { subscriberId: `presence-${transport}` });
    const subscriber = created.body;
    const onA = await socketTo(apiA, subscriber);
    const onB = await socketTo(apiB, subscriber);
    await waitFor(async () => (await isOnline(`presence-${transport}`)) === true, { description: 'online' });
    onA.close();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await isOnline(`presence-${transport}`)).toBe(true);
    onB.close();
    await waitFor(async () => (await isOnline(`presence-${transport}`)) === false, {
      description: 'offline after the last socket',
    });
  }, 60_000);

  it('deleting a subscriber through api B closes its socket on api A at once', async () => {
    const created = await call('POST', `${apiB}/v2/subscribers`, { subscriberId: `gone-${transport}` });
    const onA = await socketTo(apiA, created.body);
    await waitFor(async () => (await isOnline(`gone-${transport}`)) === true, { description: 'online' });
    const closed = new Promise<void>((resolve) => onA.socket.once('disconnect', () => resolve()));
    const deletedAt = Date.now();
    expect((await call('DELETE', `${apiB}/v2/subscribers/gone-${transport}`)).status).toBe(200);
    await closed;
    // Through the adapter, not the sweep of open sockets that api A runs every 2 s.
    expect(Date.now() - deletedAt).toBeLessThan(1_000);
  }, 60_000);

  it('deleting an environment through api B ends its key on api A at once, although api A had it cached', async () => {
    const created = await call('POST', `${apiB}/v1/environments`, { name: `Staging ${transport}`, color: '#123456' });
    expect(created.status).toBe(201);
    const environment = created.body;
    const asStaging = apiCaller(environment.apiKeys[0].key as string);
    expect((await asStaging('GET', `${apiA}/v1/environments/me`)).status).toBe(200);
    expect((await call('DELETE', `${apiB}/v1/environments/${environment._id}`)).status).toBe(200);
    await waitFor(async () => (await asStaging('GET', `${apiA}/v1/environments/me`)).status === 401, {
      timeoutMs: 1_000,
      description: "api A refusing the deleted environment's key",
    });
  }, 60_000);

  // Last: it stops api A.
  it('an api process stopping with sockets open exits cleanly and marks their subscribers offline', async () => {
    const created = await call('POST', `${apiB}/v2/subscribers`, { subscriberId: `stop-${transport}` });
    const onA = await socketTo(apiA, created.body);
    await waitFor(async () => (await isOnline(`stop-${transport}`)) === true, { description: 'online' });
    const closed = new Promise<void>((resolve) => onA.socket.once('disconnect', () => resolve()));
    expect(await processes[0].stop()).toBe(0);
    await closed;
    await waitFor(async () => (await isOnline(`stop-${transport}`)) === false, {
      description: 'offline after the stop',
    });
  }, 60_000);
});
