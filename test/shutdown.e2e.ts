import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { triggerEvents } from '#dal';
import { createWorkflow, inApp } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('graceful shutdown', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  // The running jobs finish before the queues close: a fan-out that enqueued its steps into a
  // closed queue used to wait forever on the PostgreSQL queue backend, and the shutdown with it.
  it('finishes promptly while fan-outs are running; every accepted event stays stored', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp()] });
    const events = Array.from({ length: 50 }, (_, i) => ({ name: workflow.identifier, to: `shutdown-${i}` }));
    const res = await t.api('post', '/v1/events/trigger/bulk').send({ events });
    expect(res.status).toBe(201);

    const started = Date.now();
    await t.app.close();
    expect(Date.now() - started).toBeLessThan(15_000);
    const stored = await t.db.select().from(triggerEvents).where(eq(triggerEvents.workflowId, workflow.id));
    expect(stored).toHaveLength(50);
  });
});
