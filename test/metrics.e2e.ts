import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createWorkflow, inApp, triggerAndSettle } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves Prometheus text without auth: HTTP durations by route template, queue depth, process metrics', async () => {
    await t.api('get', '/v1/tenants/some-tenant');
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/tenants\/:identifier",status_code="404"\} 1/);
    expect(res.text).toMatch(/queue_jobs\{queue="step-jobs",state="waiting"\} \d+/);
    expect(res.text).toContain('process_resident_memory_bytes');
  });

  it('counts deliveries by channel, provider and status, and step jobs by name', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp('Hello')] });
    await triggerAndSettle(t, { name: workflow.identifier, to: 'metrics-subscriber' });
    const text = (await t.http.get('/metrics')).text;
    expect(text).toMatch(/deliveries_total\{channel="in_app",provider="novu",status="sent"\} [1-9]/);
    expect(text).toMatch(/queue_job_duration_seconds_count\{name="run-step",outcome="completed"\} [1-9]/);
  });
});

describe('GET /metrics disabled', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404', async () => {
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(404);
  });
});
