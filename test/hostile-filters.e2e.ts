import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createWorkflow, inApp, messagesOf, triggerAndSettle } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const listOf = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** In the running service: list filters over large inputs cost linear time. */
describe('hostile step filters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['ANY_IN', 'ALL_IN', 'NOT_IN', 'IN'])(
    '%s over 14,000 stored values and a 10,000-item payload array: /health answers within 1 s, the step runs',
    async (operator) => {
      // Stored directly: saving refuses lists over 1,000 values, yet a workflow stored before that cap still runs.
      const values = listOf(14_000, 'v').join(',');
      const workflow = await createWorkflow(t, {
        steps: [
          inApp('matched', {
            filters: [
              {
                isNegated: false,
                type: 'GROUP',
                value: 'AND',
                children: [{ on: 'payload', field: 'arr', operator, value: values }],
              },
            ],
          }),
        ],
      });
      const payload = { arr: [...listOf(9_999, 'w'), 'v13999'] };
      let done = false;
      let slowest = 0;
      const probe = (async () => {
        while (!done) {
          const started = performance.now();
          expect((await t.http.get('/health')).status).toBe(200);
          slowest = Math.max(slowest, performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      try {
        const { transactionId, jobs } = await triggerAndSettle(
          t,
          { name: workflow.identifier, to: ['filter-a', 'filter-b', 'filter-c'], payload },
          undefined,
          30_000,
        );
        expect(jobs.every((job) => job.status === 'completed' || job.status === 'canceled')).toBe(true);
        // The array holds one listed value: ANY_IN passes; ALL_IN does not; IN and NOT_IN compare the array as one value.
        const matched = operator === 'ANY_IN' || operator === 'NOT_IN' ? 3 : 0;
        expect(await messagesOf(t, transactionId)).toHaveLength(matched);
      } finally {
        done = true;
        await probe;
      }
      expect(slowest).toBeLessThan(1_000);
    },
    60_000,
  );
});
