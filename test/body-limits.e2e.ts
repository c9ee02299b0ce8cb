import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createWorkflow, inApp } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Answer {
  status: number;
  body: string;
}

/**
 * A request whose body is sent with `Transfer-Encoding: chunked` and no Content-Length, in 64 KB
 * chunks: the server learns its size only by reading it. The server may answer (413) and close
 * before the client has written everything; the answer is what counts.
 */
function sendChunked(port: number, method: string, path: string, apiKey: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          authorization: `ApiKey ${apiKey}`,
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const bytes = Buffer.from(body);
    const CHUNK = 64 * 1024;
    const write = (offset: number): void => {
      if (req.destroyed) return;
      if (offset >= bytes.length) {
        req.end();
        return;
      }
      const more = req.write(bytes.subarray(offset, offset + CHUNK));
      if (more) setImmediate(() => write(offset + CHUNK));
      else req.once('drain', () => write(offset + CHUNK));
    };
    write(0);
  });
}

describe('body limits apply to the bytes received, chunked or not', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a 3 MB chunked PATCH /v2/subscribers/{id} is 413 like the same body with Content-Length, and nothing is stored', async () => {
    expect((await t.api('post', '/v2/subscribers').send({ subscriberId: 'chunky', firstName: 'Before' })).status).toBe(
      201,
    );
    const body = JSON.stringify({ firstName: 'After', data: { blob: 'x'.repeat(3_000_000) } });

    const withLength = await t
      .api('patch', '/v2/subscribers/chunky')
      .send(body)
      .set('Content-Type', 'application/json');
    expect(withLength.status).toBe(413);

    const chunked = await sendChunked(port, 'PATCH', '/v2/subscribers/chunky', t.apiKey, body);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({
      statusCode: 413,
      error: 'Payload Too Large',
      path: '/v2/subscribers/chunky',
    });

    const stored = await t.api('get', '/v2/subscribers/chunky');
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ firstName: 'Before', data: null });
  });

  it('each route keeps its own limit for chunked bodies: a trigger takes 300 KB, a tenant does not; a trigger over 512 KB is 413', async () => {
    const workflow = await createWorkflow(t, { steps: [inApp()] });
    const payload = { text: 'y'.repeat(300 * 1024) };
    const trigger = await sendChunked(
      port,
      'POST',
      '/v1/events/trigger',
      t.apiKey,
      JSON.stringify({ name: workflow.identifier, to: 'chunked-to', payload }),
    );
    expect(trigger.status).toBe(201);

    const tenant = await sendChunked(
      port,
      'POST',
      '/v1/tenants',
      t.apiKey,
      JSON.stringify({ identifier: 'chunked-tenant', name: 'T', data: payload }),
    );
    expect(tenant.status).toBe(413);
    expect((await t.api('get', '/v1/tenants/chunked-tenant')).status).toBe(404);

    const tooBig = await sendChunked(
      port,
      'POST',
      '/v1/events/trigger',
      t.apiKey,
      JSON.stringify({ name: workflow.identifier, to: 'chunked-to', payload: { text: 'y'.repeat(600 * 1024) } }),
    );
    expect(tooBig.status).toBe(413);
  });
});
