import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { EnvironmentRepository } from '#dal';
import { SubscriberHashVerifier } from '#api/inbox/use-cases/subscriber-hash.verifier.js';
import { startInboxApp, type InboxApp } from './inbox-app.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** Who sends a session start: the socket's source address, and an X-Forwarded-For a proxy (or a liar) adds. */
interface Sender {
  localAddress: string;
  forwardedFor?: string;
}

const FLOODER: Sender = { localAddress: '127.0.0.1' };
const NEIGHBOUR: Sender = { localAddress: '127.0.0.2' };

/** POST /v1/inbox/session from a chosen loopback address (fetch cannot pick its source address). */
function startSession(app: InboxApp, from: Sender, body: Record<string, unknown>): Promise<Answer> {
  const payload = JSON.stringify({ applicationIdentifier: app.applicationIdentifier, ...body });
  return new Promise((resolve, reject) => {
    const req = request(
      `${app.url}/v1/inbox/session`,
      {
        method: 'POST',
        localAddress: from.localAddress,
        // A connection per request: a pooled one could carry a request from another source address.
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          ...(from.forwardedFor ? { 'X-Forwarded-For': from.forwardedFor } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function requireHmac(app: InboxApp): Promise<void> {
  await app.t.app.get(EnvironmentRepository).setRequireHmac(app.t.environment.id, true);
}

const hashOf = (app: InboxApp, subscriberId: string) =>
  createHmac('sha256', app.t.apiKey).update(subscriberId).digest('hex');

/** A session start with the right hash. */
const valid = (app: InboxApp, from: Sender, subscriberId: string) =>
  startSession(app, from, { subscriber: { subscriberId }, subscriberHash: hashOf(app, subscriberId) });

/** A failed hash check: a wrong hash, or (every third one) none at all. */
const wrong = (app: InboxApp, from: Sender, n: number) =>
  startSession(app, from, {
    subscriber: { subscriberId: `victim-${n}` },
    ...(n % 3 === 0 ? {} : { subscriberHash: hashOf(app, `someone-else-${n}`) }),
  });

const FAILURE_BURST = 3;

/**
 * Failures of one client are 401 while its budget lasts, 429 beyond: at most the burst plus a token
 * a second (the smallest refill setting) of the time the requests took got a hash check.
 */
function expectBudgetHeld(statuses: number[], startedAt: number): void {
  const refills = Math.ceil((performance.now() - startedAt) / 1000);
  expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(FAILURE_BURST + refills);
  expect(statuses).toContain(429);
}

/** Sends failed session starts one after another (no concurrency: each sees what the previous one left). */
async function failInTurn(app: InboxApp, senders: Sender[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const [n, from] of senders.entries()) statuses.push((await wrong(app, from, n)).status);
  return statuses;
}

function expectRefusedClient(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(answer.body).toMatchObject({
    statusCode: 429,
    message: expect.stringMatching(/failed inbox session attempts from this client, retry after \d+ s/),
    path: '/v1/inbox/session',
  });
}

describe('failed subscriberHash checks are charged to their client, not to the environment', () => {
  describe('client = socket address (TRUST_PROXY unset)', () => {
    let app: InboxApp;
    beforeAll(async () => {
      app = await startInboxApp({
        env: {
          RATE_LIMIT_INBOX_SESSION_FAILURES_BURST: String(FAILURE_BURST),
          RATE_LIMIT_INBOX_SESSION_FAILURES_PER_SECOND: '1',
          RATE_LIMIT_INBOX_SESSION_BURST: '10',
          RATE_LIMIT_INBOX_SESSION_PER_SECOND: '1',
        },
      });
      await requireHmac(app);
    });
    afterAll(async () => {
      await app?.close();
    });

    it("a wrong-hash flood gets 429 while another address's valid sessions all start, within the environment's burst", async () => {
      const startedAt = performance.now();
      const flood = Array.from({ length: 20 }, (_, n) => wrong(app, FLOODER, n));
      const during = Array.from({ length: 5 }, (_, n) => valid(app, NEIGHBOUR, `during-${n}`));
      const [flooded, neighbours] = await Promise.all([Promise.all(flood), Promise.all(during)]);
      expectBudgetHeld(
        flooded.map((answer) => answer.status),
        startedAt,
      );
      expectRefusedClient(flooded.find((answer) => answer.status === 429)!);
      expect(neighbours.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
      // The environment's 10 tokens went to these 10 sessions only: the 20 failures took none.
      const after = await Promise.all(Array.from({ length: 5 }, (_, n) => valid(app, NEIGHBOUR, `after-${n}`)));
      expect(after.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
      expect((await app.t.api('get', '/v2/subscribers/victim-1')).status).toBe(404);
    });

    it('refuses a client past its budget before checking its hash', async () => {
      const verify = jest.spyOn(app.t.app.get(SubscriberHashVerifier), 'verify');
      const startedAt = performance.now();
      const statuses = await failInTurn(app, Array<Sender>(10).fill({ localAddress: '127.0.0.4' }));
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expectBudgetHeld(statuses, startedAt);
      // Each 429 was answered without a hash check.
      expect(verify).toHaveBeenCalledTimes(statuses.filter((status) => status === 401).length);
      verify.mockRestore();
    });

    it('ignores X-Forwarded-For: a client cannot dodge its budget by changing the header', async () => {
      const rotating = Array.from({ length: 8 }, (_, n) => ({
        localAddress: '127.0.0.3',
        forwardedFor: `198.51.100.${n}`,
      }));
      const startedAt = performance.now();
      const statuses = await failInTurn(app, rotating);
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expectBudgetHeld(statuses, startedAt);
    });
  });

  describe('client = X-Forwarded-For of a trusted proxy (TRUST_PROXY=loopback)', () => {
    let app: InboxApp;
    beforeAll(async () => {
      app = await startInboxApp({
        env: {
          TRUST_PROXY: 'loopback',
          RATE_LIMIT_INBOX_SESSION_FAILURES_BURST: String(FAILURE_BURST),
          RATE_LIMIT_INBOX_SESSION_FAILURES_PER_SECOND: '1',
        },
      });
      await requireHmac(app);
    });
    afterAll(async () => {
      await app?.close();
    });

    it('gives two clients behind the same proxy address their own budgets', async () => {
      // The proxy appends the address it saw; what the client wrote to the left of it is not believed.
      const first = Array.from({ length: 8 }, (_, n) => ({
        localAddress: '127.0.0.1',
        forwardedFor: `10.9.9.${n}, 203.0.113.1`,
      }));
      const second: Sender = { localAddress: '127.0.0.1', forwardedFor: '203.0.113.2' };
      const startedAt = performance.now();
      const statuses = await failInTurn(app, first);
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expectBudgetHeld(statuses, startedAt);
      expect((await wrong(app, second, 1)).status).toBe(401);
      expect((await valid(app, second, 'behind-proxy')).status).toBe(201);
    });

    it('gives each forwarded client a budget of its own: one failure each is a 401', async () => {
      const clients = Array.from({ length: 8 }, (_, n) => ({
        localAddress: '127.0.0.1',
        forwardedFor: `198.51.100.${n}`,
      }));
      expect(await failInTurn(app, clients)).toEqual(Array(8).fill(401));
    });
  });
});
