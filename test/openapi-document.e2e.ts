import { Logger } from '@nestjs/common';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The document SDK generators and the API docs page read. @nestjs/swagger names a schema after its
 * DTO class and keeps one of two classes of the same name, with a warning: the other's routes would
 * then be documented with the wrong schema.
 */
describe('GET /api-docs-json', () => {
  let t: TestApp;
  const warn = jest.spyOn(Logger, 'warn');

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    warn.mockRestore();
    await t?.close();
  });

  it('validates against the OpenAPI 3 schema', async () => {
    const res = await t.http.get('/api-docs-json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('was built without a duplicate schema name', () => {
    const duplicates = warn.mock.calls.map(([message]) => String(message)).filter((text) => text.includes('Duplicate'));
    expect(duplicates).toEqual([]);
  });
});
