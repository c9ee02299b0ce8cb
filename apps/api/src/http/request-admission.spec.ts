import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { installLoadShedding } from './request-admission.js';

/** A real Fastify server with a route that answers only when released. */
async function serverWithLimit(limit: number): Promise<{ app: FastifyInstance; base: string; release: () => void }> {
  const app = Fastify();
  installLoadShedding(app, limit);
  let waiting: (() => void)[] = [];
  app.get('/slow', () => new Promise<string>((resolve) => waiting.push(() => resolve('done'))));
  app.get('/health', () => 'ok');
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const release = () => {
    waiting.forEach((resolve) => resolve());
    waiting = [];
  };
  return { app, base, release };
}

describe('load shedding', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  it('refuses requests beyond the limit at once with 503 + Retry-After, and admits again once answers are out', async () => {
    const server = await serverWithLimit(2);
    app = server.app;
    const admitted = [fetch(`${server.base}/slow`), fetch(`${server.base}/slow`)];
    await new Promise((resolve) => setTimeout(resolve, 100));

    const refused = await fetch(`${server.base}/slow`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      statusCode: 503,
      message: 'The server is overloaded, retry shortly',
      error: 'Service Unavailable',
      path: '/slow',
      timestamp: expect.any(String),
    });
    expect((await fetch(`${server.base}/health`)).status).toBe(200);

    server.release();
    expect((await Promise.all(admitted)).map((res) => res.status)).toEqual([200, 200]);
    const again = fetch(`${server.base}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.release();
    expect((await again).status).toBe(200);
  });

  it('an aborted request frees its place', async () => {
    const server = await serverWithLimit(1);
    app = server.app;
    const controller = new AbortController();
    const aborted = fetch(`${server.base}/slow`, { signal: controller.signal }).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    expect(await aborted).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = fetch(`${server.base}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.release();
    expect((await next).status).toBe(200);
  });
});
