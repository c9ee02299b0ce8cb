import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '#common';
import { planNodes, statementsDuring, type SentStatement } from '../support/statement-plans.js';
import { sessionToken, startInboxApp, type InboxApp } from './inbox-app.js';

/** Messages of one subscriber: enough that sorting them all is what a wrong plan would do. */
const MESSAGES = 20_000;

/**
 * A subscriber with tens of thousands of messages (a service account, a long-lived user): a page of
 * their inbox, or of GET /v1/messages, is read from the newest end of the subscriber's index, never by
 * reading and sorting every message they have.
 */
describe('an inbox with many messages', () => {
  let app: InboxApp;
  let token: string;
  let subscriberId: string;
  let newestIds: string[];

  beforeAll(async () => {
    app = await startInboxApp();
    token = await sessionToken(app, 'heavy-reader');
    const pool = app.t.db.$client;
    const { rows } = await pool.query<{ id: string }>(
      `SELECT id FROM subscribers WHERE environment_id = $1 AND subscriber_id = 'heavy-reader'`,
      [app.t.environment.id],
    );
    subscriberId = rows[0].id;
    // Ids carry their creation time (as the service's do), so the last made are the newest.
    const ids = Array.from({ length: MESSAGES }, () => newId());
    await pool.query(
      `INSERT INTO messages (id, environment_id, organization_id, notification_id, job_id, subscriber_id, transaction_id,
         channel, content, created_at, updated_at)
       SELECT m.id, $1, $2, gen_random_uuid(), gen_random_uuid(), $3, 'heavy-' || m.n, 'in_app',
         to_jsonb('Message ' || m.n), now() + make_interval(secs => m.n / 1000.0), now()
       FROM unnest($4::uuid[]) WITH ORDINALITY AS m(id, n)`,
      [app.t.environment.id, app.t.environment.organizationId, subscriberId, ids],
    );
    await pool.query('ANALYZE messages');
    newestIds = ids.slice(-10).reverse();
  });
  afterAll(async () => {
    await app?.close();
  });

  const messageStatements = (action: () => Promise<void>) => statementsDuring(app.t.db, /from "messages"/, action);
  const planOf = (statement: SentStatement) => planNodes(app.t.db, statement);

  it('lists the newest inbox page from the index, without sorting the subscriber’s messages', async () => {
    let listed: string[] = [];
    const statements = await messageStatements(async () => {
      const res = await fetch(`${app.url}/v1/inbox/notifications?limit=10`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      listed = ((await res.json()) as { data: { id: string }[] }).data.map((notification) => notification.id);
    });
    expect(listed).toEqual(newestIds);
    const list = statements.find((statement) => /order by/i.test(statement.text));
    expect(list).toBeDefined();
    const plan = await planOf(list!);
    expect(plan).not.toContain('Sort');
    expect(plan.some((node) => /Index/.test(node))).toBe(true);
  });

  it('pages GET /v1/messages of the subscriber from the index too', async () => {
    let listed: string[] = [];
    const statements = await messageStatements(async () => {
      const res = await app.t.api('get', '/v1/messages?subscriberId=heavy-reader&channel=in_app&limit=10');
      expect(res.status).toBe(200);
      listed = (res.body as { data: { _id: string }[] }).data.map((message) => message._id);
    });
    expect(listed).toEqual(newestIds);
    const page = statements.find((statement) => /order by/i.test(statement.text));
    expect(page).toBeDefined();
    expect(await planOf(page!)).not.toContain('Sort');
  });
});
