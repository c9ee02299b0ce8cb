import { describe, expect, it } from '@jest/globals';
import { reasonPhrase } from './error-body.js';

describe('reasonPhrase', () => {
  // Clients read `error`: a Node release that renamed a phrase (RFC 9110 has "Content Too Large" and
  // "Unprocessable Content") must not change it unnoticed.
  it.each([
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [405, 'Method Not Allowed'],
    [409, 'Conflict'],
    [413, 'Payload Too Large'],
    [414, 'URI Too Long'],
    [415, 'Unsupported Media Type'],
    [422, 'Unprocessable Entity'],
    [429, 'Too Many Requests'],
    [500, 'Internal Server Error'],
    [503, 'Service Unavailable'],
  ])('%i is %s', (status, phrase) => {
    expect(reasonPhrase(status)).toBe(phrase);
  });

  it('a status without a standard phrase reads as its class', () => {
    expect(reasonPhrase(499)).toBe('Bad Request');
    expect(reasonPhrase(599)).toBe('Internal Server Error');
  });
});
