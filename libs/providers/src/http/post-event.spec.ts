import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startReceiver, type Receiver } from '../testing/local-receiver.test.js';
import { postEvent } from './post-event.js';
import { PRIVATE_TARGET_REFUSED } from './target-guard.js';

describe('postEvent (outbound webhook POST)', () => {
  let receiver: Receiver;
  const local = { timeoutMs: 2000, allowPrivateTargets: true };
  beforeAll(async () => {
    receiver = await startReceiver({ status: 204 });
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('sends the body and headers as given and answers the status', async () => {
    const answer = await postEvent(
      receiver.url,
      { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      '{"a":1}',
      local,
    );
    expect(answer).toEqual({ status: 204, retryAfter: null });
    const request = receiver.requests.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.body).toBe('{"a":1}');
    expect(request.headers['webhook-id']).toBe('msg_1');
  });

  it('answers a redirect as it came, without following it, and passes Retry-After on', async () => {
    receiver.replies.push({ status: 302, headers: { location: 'http://169.254.169.254/' } });
    receiver.replies.push({ status: 503, headers: { 'retry-after': '30' } });
    expect(await postEvent(receiver.url, {}, '{}', local)).toEqual({ status: 302, retryAfter: null });
    expect(await postEvent(receiver.url, {}, '{}', local)).toEqual({ status: 503, retryAfter: '30' });
  });

  it('cuts a huge answer off instead of reading it', async () => {
    receiver.replies.push({ status: 200, streamBytes: 1024 * 1024 * 1024 });
    const answer = await postEvent(receiver.url, {}, '{}', local);
    expect(answer.status).toBe(200);
    expect(receiver.streamedBytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('fails retryably on a time-out and on a refused connection', async () => {
    receiver.replies.push({ status: 200, delayMs: 1_000 });
    await expect(postEvent(receiver.url, {}, '{}', { ...local, timeoutMs: 200 })).rejects.toMatchObject({
      name: 'ProviderError',
      message: 'The webhook endpoint timed out after 200 ms',
      retryable: true,
    });
    const closed = `http://127.0.0.1:1/`;
    await expect(postEvent(closed, {}, '{}', local)).rejects.toMatchObject({
      message: 'The webhook endpoint request failed: ECONNREFUSED',
      retryable: true,
    });
  });

  it('refuses a private address unless private targets are allowed', async () => {
    const before = receiver.requests.length;
    await expect(postEvent(receiver.url, {}, '{}', { ...local, allowPrivateTargets: false })).rejects.toMatchObject({
      message: PRIVATE_TARGET_REFUSED,
      retryable: false,
    });
    expect(receiver.requests.length).toBe(before);
  });
});
