import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { newId } from '#common';
import { rowsRead, statementsDuring } from './support/statement-plans.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Notifications of one subscriber: enough that sorting them all is what a wrong plan would do. */
const NOTIFICATIONS = 20_000;

/**
 * The activity feed of an environment where one subscriber has tens of thousands of notifications: its
 * newest page, and that subscriber's (`subscriberIds`), come from the first rows of the indexes in the
 * feed's order, never from reading and sorting all of them.
 */
describe('GET /v1/notifications over many notifications', () => {
  let t: TestApp;
  let heavyIds: string[];
  let otherId: string;

  /**
   * `count` notifications of the subscriber a millisecond apart from `fromMs` after now, the last made
   * the newest (ids carry their time too).
   */
  async function seed(subscriberInternalId: string, count: number, fromMs = 0): Promise<string[]> {
    const ids = Array.from({ length: count }, () => newId());
    await t.db.$client.query(
      `INSERT INTO notifications (id, environment_id, organization_id, event_id, subscriber_id, workflow_id, transaction_id,
         channels, created_at, updated_at)
       SELECT m.id, $1, $2, gen_random_uuid(), $3, $4, 'many-' || m.id, '{in_app}',
         now() + make_interval(secs => ($6 + m.n) / 1000.0), now()
       FROM unnest($5::uuid[]) WITH ORDINALITY AS m(id, n)`,
      [t.environment.id, t.environment.organizationId, subscriberInternalId, randomUUID(), ids, fromMs],
    );
    return ids;
  }

  async function internalId(subscriberId: string): Promise<string> {
    const res = await t.api('post', '/v2/subscribers').send({ subscriberId });
    expect(res.status).toBe(201);
    const { rows } = await t.db.$client.query<{ id: string }>(
      `SELECT id FROM subscribers WHERE environment_id = $1 AND subscriber_id = $2`,
      [t.environment.id, subscriberId],
    );
    return rows[0].id;
  }

  beforeAll(async () => {
    t = await startTestApp();
    heavyIds = await seed(await internalId('feed-heavy'), NOTIFICATIONS);
    [otherId] = await seed(await internalId('feed-light'), 1, -1_000);
    await t.db.$client.query('ANALYZE notifications');
  });
  afterAll(async () => {
    await t?.close();
  });

  const listed = async (query: string) => {
    const res = await t.api('get', `/v1/notifications?${query}`);
    expect(res.status).toBe(200);
    return (res.body as { data: { _id: string }[] }).data.map((notification) => notification._id);
  };

  it('pages the newest notifications of the environment', async () => {
    expect(await listed('page=0&limit=10')).toEqual(heavyIds.slice(-10).reverse());
    expect(await listed('page=1&limit=10')).toEqual(heavyIds.slice(-20, -10).reverse());
  });

  /** The page's ids and the rows the statement read to find them. */
  async function subscriberPage(query: string): Promise<{ ids: string[]; read: number }> {
    let ids: string[] = [];
    const statements = await statementsDuring(t.db, /activity_feed_page/, async () => {
      ids = await listed(query);
    });
    expect(statements).toHaveLength(1);
    return { ids, read: await rowsRead(t.db, statements[0]) };
  }

  it('pages one subscriber’s notifications from their index: neither all of theirs nor the environment’s are read', async () => {
    const heavy = await subscriberPage('subscriberIds=feed-heavy&page=0&limit=10');
    expect(heavy.ids).toEqual(heavyIds.slice(-10).reverse());
    // A page is 10 notifications and their jobs, details and events: far fewer rows than either subscriber's.
    expect(heavy.read).toBeLessThan(200);
    const light = await subscriberPage('subscriberIds=feed-light&limit=10');
    expect(light.ids).toEqual([otherId]);
    expect(light.read).toBeLessThan(200);
    expect(await listed('subscriberIds=feed-nobody&limit=10')).toEqual([]);
    // Several subscribers at once: the same answers, newest first across them.
    expect(await listed('subscriberIds=feed-heavy&subscriberIds=feed-light&limit=3')).toEqual(
      heavyIds.slice(-3).reverse(),
    );
  });
});
