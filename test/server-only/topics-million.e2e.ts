import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq, sql } from 'drizzle-orm';
import { TopicRepository, topicSubscribers } from '#dal';
import { createTopic } from '../support/builders.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A 1,000,000-member topic: the calls keep working and the member walk uses the primary key.
 * Server pass only: seeding a million rows into embedded PGlite alone takes minutes. Speed itself
 * is measured by the benchmarks (bench/), not asserted here.
 */
describe('topics at scale', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const subscribe = (key: string, subscriptions: unknown) =>
    t.api('post', `/v2/topics/${key}/subscriptions`).send({ subscriptions });
  const unsubscribe = (key: string, subscriptions: unknown) =>
    t.api('delete', `/v2/topics/${key}/subscriptions`).send({ subscriptions });

  describe('a topic with 1,000,000 members', () => {
    const members = 1_000_000;
    let topicId: string;

    beforeAll(async () => {
      const topic = await createTopic(t, 'huge');
      topicId = topic._id as string;
      await t.db.execute(sql`
        INSERT INTO topic_subscribers (topic_id, subscriber_id, environment_id, organization_id, external_subscriber_id)
        SELECT ${topicId}::uuid, md5(i::text)::uuid, ${t.environment.id}::uuid, ${t.environment.organizationId}::uuid, 'bulk-' || i
        FROM generate_series(1, ${members}) AS i`);
      await t.db.execute(sql`ANALYZE topic_subscribers`);
    }, 300_000);

    it('subscribe, unsubscribe and deep pages work; member pages walk the primary key (no scan, no sort)', async () => {
      const newcomers = Array.from({ length: 100 }, (_, i) => `huge-new-${i}`);
      await t
        .api('post', '/v1/subscribers/bulk')
        .send({ subscribers: newcomers.map((subscriberId) => ({ subscriberId })) });

      const added = await subscribe('huge', newcomers);
      expect(added.body.meta.successful).toBe(100);
      const removed = await unsubscribe('huge', newcomers.slice(0, 50));
      expect(removed.body.meta.successful).toBe(50);
      const page = await t.api('get', '/v2/topics/huge/subscriptions?limit=100');
      expect(page.body.data).toHaveLength(100);
      // The member count stops at its cap instead of walking a million rows.
      expect(page.body).toMatchObject({ totalCount: 50_000, totalCountCapped: true });
      const deep = await t.api(
        'get',
        '/v2/topics/huge/subscriptions?limit=100&after=f0000000-0000-4000-8000-000000000000',
      );
      expect(deep.body.data.length).toBeGreaterThan(0);

      const repository = t.app.get(TopicRepository);
      const fanOutPage = await repository.listFanOutPage(
        t.environment.id,
        topicId,
        '80000000-0000-0000-0000-000000000000',
        500,
      );
      expect(fanOutPage).toHaveLength(500);
      expect(fanOutPage[0].subscriberId > '80000000-0000-0000-0000-000000000000').toBe(true);
      expect([...fanOutPage.map((m) => m.subscriberId)].sort()).toEqual(fanOutPage.map((m) => m.subscriberId));

      const plan = await t.db.execute(sql`EXPLAIN SELECT subscriber_id FROM topic_subscribers
        WHERE topic_id = ${topicId}::uuid AND environment_id = ${t.environment.id}::uuid AND subscriber_id > '80000000-0000-0000-0000-000000000000'::uuid
        ORDER BY subscriber_id LIMIT 500`);
      const text = (plan.rows as Array<Record<string, string>>).map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toContain('topic_subscribers_pk');
      expect(text).not.toMatch(/Seq Scan|Sort/);
      const [{ total }] = (await t.db
        .select({ total: sql<number>`count(*)::int` })
        .from(topicSubscribers)
        .where(and(eq(topicSubscribers.topicId, topicId)))) as Array<{ total: number }>;
      expect(total).toBe(members + 50);
    }, 120_000);
  });
});
