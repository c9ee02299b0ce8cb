import { describe, expect, it } from '@jest/globals';
import type { JobRow } from '#dal';
import type { ProviderAnswer } from '#providers';
import type { StepContext } from '../step-context.js';
import {
  FAILED_REQUEST_RUN,
  finalFailure,
  keptResponse,
  MAX_KEPT_BODY_CHARS,
  prepareRequest,
} from './http-request.step.js';

const answer = (status: number, data: unknown, text = JSON.stringify(data)): ProviderAnswer => ({
  status,
  ok: status < 300,
  headers: new Headers({ 'content-type': 'application/json', 'set-cookie': 'session=1', 'x-request-id': 'r-1' }),
  text,
  data,
});

describe('http_request step, decided without a network', () => {
  it('a key/value body becomes a JSON object; headers are lower-cased; the shown URL has no query or user info', () => {
    const prepared = prepareRequest({
      url: 'https://user:pw-secret@api.example.com/v1/users?token=abc123secret',
      method: 'PATCH',
      headers: [{ key: 'X-Trace', value: 't-1' }],
      body: [{ key: 'plan', value: 'gold' }],
    });
    expect(prepared).toMatchObject({
      shown: 'PATCH https://api.example.com/v1/users',
      call: { method: 'PATCH', headers: { 'x-trace': 't-1' }, json: { plan: 'gold' }, guard: true },
    });
    expect((prepared as { call: { secrets: unknown[] } }).call.secrets).toEqual(
      expect.arrayContaining(['abc123secret', 'pw-secret']),
    );
  });

  it('GET sends no body; the method defaults to POST', () => {
    expect(prepareRequest({ url: 'https://a.example', method: 'GET', body: { a: 1 } })).toMatchObject({
      call: { method: 'GET', json: undefined },
    });
    expect(prepareRequest({ url: 'https://a.example', body: { a: 1 } })).toMatchObject({
      call: { method: 'POST', json: { a: 1 } },
    });
  });

  it('a rendered URL that is not http(s), or a header value with a line break, is refused', () => {
    expect(prepareRequest({ url: 'not a url' })).toEqual({
      error: 'The rendered URL of the http_request step is not a URL',
    });
    expect(prepareRequest({ url: 'file:///etc/passwd' })).toEqual({
      error: 'The rendered URL of the http_request step is not http or https',
    });
    expect(prepareRequest({ url: 'https://a.example', headers: [{ key: 'X-A', value: 'a\r\nHost: b' }] })).toEqual({
      error: 'The rendered value of header X-A holds a line break',
    });
  });

  it('keeps the status, a few headers and the JSON body; a body too large to keep is left out', () => {
    expect(keptResponse(answer(200, { plan: 'gold' }))).toEqual({
      status: 200,
      ok: true,
      headers: { 'content-type': 'application/json', 'x-request-id': 'r-1' },
      body: { plan: 'gold' },
    });
    expect(keptResponse(answer(200, undefined, 'plain text')).body).toBe('plain text');
    const large = keptResponse(answer(200, { blob: 'x'.repeat(MAX_KEPT_BODY_CHARS) }));
    expect(large).toMatchObject({ body: null, truncated: true });
  });

  it('a final failure fails the job and ends the run, unless continueOnFailure', () => {
    const context = (): StepContext => ({ job: { id: 'job-1' } as JobRow, payload: {}, now: new Date(), details: [] });
    const stopping = context();
    expect(finalFailure(stopping, 'POST https://a.example/ answered HTTP 500', { continueOnFailure: false })).toEqual({
      status: 'failed',
      error: 'POST https://a.example/ answered HTTP 500',
      endsRun: FAILED_REQUEST_RUN,
    });
    expect(stopping.details[0].detail).toBe(
      'POST https://a.example/ answered HTTP 500; the following steps are skipped',
    );
    const continuing = context();
    const response = { status: 404 };
    expect(finalFailure(continuing, 'answered HTTP 404', { continueOnFailure: true, response })).toEqual({
      status: 'failed',
      error: 'answered HTTP 404',
      result: { response },
    });
  });
});
