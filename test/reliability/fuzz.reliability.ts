import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createDashboardUser, signIn, type DashboardBrowser } from '../support/dashboard.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  anyJson,
  deepNesting,
  encodePathSegment,
  malformedJson,
  pathParamArbitrary,
  queryArbitrary,
  schemaArbitrary,
  serialize,
  type Schema,
} from './support/openapi-arbitraries.js';
import { closeRawAgent, sendRaw } from './support/raw-http.js';
import { seededParam, seedResources, type SeededResources } from './support/seed.js';
import { TableChecksum } from './support/table-checksum.js';

/** Requests of a default run, shared evenly by the routes; FUZZ_RUNS_PER_ROUTE sets the share instead. */
const REQUESTS = 20_000;
const RUNS_PER_ROUTE_SET = process.env.FUZZ_RUNS_PER_ROUTE ? Number(process.env.FUZZ_RUNS_PER_ROUTE) : undefined;
/** FUZZ_SEED replays a run. */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Routes that take a dashboard session instead of an API key. */
const DASHBOARD_PREFIX = '/v1/dashboard/';

interface Route {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  body?: Schema;
}

interface FuzzRequest {
  url: string;
  payload?: string;
  contentType?: string;
  authorized: boolean;
}

interface Finding {
  route: string;
  status: number;
  request: FuzzRequest;
  detail: string;
}

/** What routesOf reads of an OpenAPI operation. */
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema } | undefined> };
}

function routesOf(document: { paths: Record<string, Record<string, Operation>> }): Route[] {
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = operation.parameters ?? [];
      routes.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        queryParams: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return routes;
}

function requestArbitrary(
  route: Route,
  seeded: SeededResources,
  components: Record<string, Schema>,
): fc.Arbitrary<FuzzRequest> {
  const params = route.pathParams.map((name) => pathParamArbitrary(seededParam(name, seeded)));
  const path = fc
    .tuple(...params)
    .map((values) =>
      route.pathParams.reduce(
        (url, name, index) => url.replace(`{${name}}`, encodePathSegment(values[index])),
        route.path,
      ),
    );
  const wellFormed = route.body ? schemaArbitrary(route.body, components).map(serialize) : anyJson.map(serialize);
  const payload = fc.oneof(
    { weight: route.body ? 12 : 2, arbitrary: wellFormed },
    { weight: 2, arbitrary: anyJson.map(serialize) },
    { weight: 1, arbitrary: deepNesting },
    { weight: 1, arbitrary: malformedJson },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const contentType = fc.oneof(
    { weight: 12, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'multipart/form-data; boundary=x',
        '',
      ),
    },
  );
  const sendsBody = route.method !== 'GET';
  return fc
    .record({
      path,
      query: queryArbitrary(route.queryParams),
      payload,
      contentType,
      authorized: fc.oneof({ weight: 30, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    })
    .map(({ path: url, query, payload: body, contentType: type, authorized }) => ({
      url: query ? `${url}?${query}` : url,
      payload: sendsBody ? body : undefined,
      contentType: sendsBody && body !== undefined ? type : undefined,
      authorized,
    }));
}

/** Scenario 5: property-based requests for every route of the OpenAPI document. */
describe('fuzzing every route of the OpenAPI document', () => {
  let t: TestApp;
  let port: number;
  let seeded: SeededResources;
  let dashboardEmail: string;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    // No worker: rows change only through the requests, so a changed table is the request's doing.
    // Login limits apply whatever RATE_LIMIT_ENABLED says: raised so that fuzzed logins leave the sign-ins room.
    t = await startTestApp({
      env: {
        ROLE: 'api',
        RATE_LIMIT_ENABLED: 'false',
        DASHBOARD_LOGIN_ATTEMPTS_PER_ACCOUNT: '100000',
        DASHBOARD_LOGIN_ATTEMPTS_PER_ADDRESS: '100000',
      },
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as { port: number }).port;
    seeded = await seedResources(t, t.apiKey, 'fuzz');
    // The dashboard's routes are fuzzed signed in as an admin; a second session of that admin and another
    // user are what their path parameters name.
    dashboardEmail = (await createDashboardUser(t, 'admin')).email;
    seeded.dashboardSessionId = (await signIn(t, dashboardEmail)).body.session.id;
    seeded.dashboardUserId = (await createDashboardUser(t, 'viewer')).id;
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    closeRawAgent();
    await t?.close();
  });

  it(`never a 5xx, never a changed row after a rejected request, the process stays up (seed ${SEED})`, async () => {
    const document = (await t.http.get('/api-docs-json')).body;
    const components: Record<string, Schema> = document.components?.schemas ?? {};
    const routes = routesOf(document);
    expect(routes.length).toBeGreaterThanOrEqual(40);
    const runsPerRoute = RUNS_PER_ROUTE_SET ?? Math.ceil(REQUESTS / routes.length);
    const checksum = await TableChecksum.create(t.runtime.database.pool);
    let snapshot = await checksum.take();

    const findings: Finding[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const started = Date.now();
    for (const [index, route] of routes.entries()) {
      const name = `${route.method} ${route.path}`;
      // A fresh dashboard session per route: an earlier route's samples may have signed it out.
      let browser: DashboardBrowser | undefined;
      if (route.path.startsWith(DASHBOARD_PREFIX)) {
        browser = await signIn(t, dashboardEmail);
        snapshot = await checksum.take();
      }
      const samples = fc.sample(requestArbitrary(route, seeded, components), {
        numRuns: runsPerRoute,
        seed: SEED + index,
      });
      for (const request of samples) {
        const headers: Record<string, string> = {};
        if (request.authorized && browser) {
          headers.cookie = browser.cookie;
          headers['x-csrf-token'] = browser.csrfToken;
          headers['x-environment-id'] = t.environment.id;
        } else if (request.authorized) headers.authorization = `ApiKey ${t.apiKey}`;
        if (request.contentType !== undefined) headers['content-type'] = request.contentType;
        let res;
        try {
          res = await sendRaw(port, route.method, request.url, headers, request.payload);
        } catch (error) {
          findings.push({ route: name, status: 0, request, detail: `connection error: ${(error as Error).message}` });
          continue;
        }
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500)
          findings.push({ route: name, status: res.status, request, detail: res.body.slice(0, 300) });
        if (!WRITE_METHODS.has(route.method)) continue;
        const after = await checksum.take();
        if (res.status >= 400) {
          const changed = TableChecksum.changed(snapshot, after);
          if (changed.length)
            findings.push({
              route: name,
              status: res.status,
              request,
              detail: `rejected, yet changed ${changed.join(', ')}`,
            });
        }
        snapshot = after;
      }
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `fuzz: ${sent} requests over ${routes.length} routes in ${seconds.toFixed(0)} s (seed ${SEED}); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );

    // Whatever was sent, the process still answers, and nothing leaked onto Object.prototype.
    expect((await t.http.get('/health')).status).toBe(200);
    expect((await t.api('get', `/v2/subscribers/${seeded.subscriberId}`)).status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(unhandled).toEqual([]);

    const distinct = new Map<string, Finding>();
    for (const finding of findings)
      distinct.set(`${finding.route} ${finding.status} ${finding.detail.slice(0, 80)}`, finding);
    expect(
      [...distinct.values()].map(
        (finding) =>
          `${finding.route} → ${finding.status}: ${finding.detail}\n  ${JSON.stringify(finding.request).slice(0, 600)}`,
      ),
    ).toEqual([]);
    // The default run is at least REQUESTS requests; FUZZ_RUNS_PER_ROUTE may shrink it for a quick look.
    expect(sent).toBe(runsPerRoute * routes.length);
  }, 600_000);
});
