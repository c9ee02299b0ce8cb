import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createWorkflow, inApp, triggerAndSettle } from './support/engine-fixtures.js';
import { signedIn } from './support/dashboard.js';
import { waitFor } from './support/wait.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * One series' value in Prometheus text (0 when absent). The registry belongs to the process, and test files
 * share their process, so assertions compare values before and after the action they count.
 */
function seriesValue(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics', () => {
  let t: TestApp;
  const scrape = async () => (await t.http.get('/metrics')).text;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves Prometheus text without auth: HTTP durations by route template, queue depth, process metrics', async () => {
    const notFound =
      'http_request_duration_seconds_count{method="GET",route="/v1/tenants/:identifier",status_code="404"}';
    const before = seriesValue(await scrape(), notFound);
    await t.api('get', '/v1/tenants/some-tenant');
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(seriesValue(res.text, notFound)).toBe(before + 1);
    expect(res.text).toMatch(/queue_jobs\{queue="step-jobs",state="waiting"\} \d+/);
    expect(res.text).toContain('process_resident_memory_bytes');
  });

  it('counts deliveries by channel, provider and status, and step jobs by name', async () => {
    const sent = 'deliveries_total{channel="in_app",provider="novu",status="sent"}';
    const completed = 'queue_job_duration_seconds_count{name="run-step",outcome="completed"}';
    const before = await scrape();
    const workflow = await createWorkflow(t, { steps: [inApp('Hello')] });
    await triggerAndSettle(t, { name: workflow.identifier, to: 'metrics-subscriber' });
    // The queue entry completes (and its duration is observed) just after the job's row is written.
    await waitFor(async () => seriesValue(await scrape(), completed) > seriesValue(before, completed), {
      timeoutMs: 10_000,
      description: 'the run-step duration to be observed',
    });
    expect(seriesValue(await scrape(), sent)).toBe(seriesValue(before, sent) + 1);
  });

  it('counts the statements sent to PostgreSQL', async () => {
    const before = seriesValue(await scrape(), 'db_statements_total');
    await t.api('get', '/v2/subscribers/someone-unknown');
    const after = seriesValue(await scrape(), 'db_statements_total');
    // The lookup itself, and whatever else ran meanwhile (the worker shares the process): at least one.
    expect(after).toBeGreaterThan(before);
    expect(Number.isInteger(after)).toBe(true);
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

describe('GET /metrics protected by METRICS_TOKEN', () => {
  const token = 'metrics-scrape-token-0001';
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: token } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 401 in the standard error body without the bearer token, with another one or with an API key', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, -1)}`,
      'Bearer ',
      `Basic ${token}`,
      `ApiKey ${t.apiKey}`,
      token,
    ]) {
      const request = t.http.get('/metrics');
      const res = await (authorization === undefined ? request : request.set('Authorization', authorization));
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', path: '/metrics' });
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.text).not.toContain('process_resident_memory_bytes');
    }
  });

  it('serves the metrics with Authorization: Bearer <token>', async () => {
    const res = await t.http.get('/metrics').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('process_resident_memory_bytes');
  });

  it("serves them to a dashboard admin's session (the System page), 403 to another role's, 401 to an ended one", async () => {
    const admin = await signedIn(t, 'admin');
    const res = await t.http.get('/metrics').set('Cookie', admin.cookie);
    expect(res.status).toBe(200);
    expect(res.text).toContain('process_resident_memory_bytes');
    for (const role of ['viewer', 'editor'] as const) {
      const session = await signedIn(t, role);
      const refused = await t.http.get('/metrics').set('Cookie', session.cookie);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        statusCode: 403,
        message: `GET /metrics needs the admin role; you are ${role}`,
      });
    }
    // A scraper's wrong token is refused whatever cookie rides along.
    const wrongToken = await t.http.get('/metrics').set('Cookie', admin.cookie).set('Authorization', 'Bearer nope');
    expect(wrongToken.status).toBe(401);
    expect((await admin.send('delete', '/v1/dashboard/session')).status).toBe(204);
    const ended = await t.http.get('/metrics').set('Cookie', admin.cookie);
    expect(ended.status).toBe(401);
    expect(ended.body.message).toMatch(/METRICS_TOKEN.*dashboard admin/);
  });

  it('the API and /health are unaffected', async () => {
    expect((await t.http.get('/health')).status).toBe(200);
    expect((await t.api('get', '/v1/tenants')).status).toBe(200);
  });
});
