import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { WorkflowWriter } from '#application';
import { workflows, type WorkflowRow } from '#dal';
import { signedIn } from './support/dashboard.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('PUT /v2/workflows/{workflowId} with If-Match: a save of one version only', () => {
  let t: TestApp;
  let counter = 0;
  const path = (workflowId: string) => `/v2/workflows/${workflowId}`;
  const stored = async (workflowId: string): Promise<WorkflowRow> =>
    (
      await t.db
        .select()
        .from(workflows)
        .where(and(eq(workflows.environmentId, t.environment.id), eq(workflows.identifier, workflowId)))
    )[0];
  /** A new workflow and the ETag its GET answers. */
  const created = async (): Promise<{ workflowId: string; etag: string }> => {
    const workflowId = `if-match-${(counter += 1)}`;
    expect((await t.api('post', '/v2/workflows').send({ name: 'First', workflowId, steps: [] })).status).toBe(201);
    const read = await t.api('get', path(workflowId));
    return { workflowId, etag: String(read.headers.etag) };
  };
  const save = (workflowId: string, name: string, ifMatch?: string) => {
    const put = t.api('put', path(workflowId));
    return (ifMatch === undefined ? put : put.set('If-Match', ifMatch)).send({ name, steps: [] });
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers the version's ETag, and saves when If-Match names it", async () => {
    const { workflowId, etag } = await created();
    const read = await t.api('get', path(workflowId));
    expect(etag).toBe(`"${read.body.updatedAt}"`);
    const saved = await save(workflowId, 'Second', etag);
    expect(saved.status).toBe(200);
    expect(saved.body.name).toBe('Second');
    expect(saved.headers.etag).toBe(`"${saved.body.updatedAt}"`);
    expect(saved.headers.etag).not.toBe(etag);
    expect((await save(workflowId, 'Third', saved.headers.etag)).status).toBe(200);
    expect((await stored(workflowId)).name).toBe('Third');
  });

  it('refuses a save over a newer version with 412 and the error body, changing nothing', async () => {
    const { workflowId, etag } = await created();
    expect((await save(workflowId, 'Theirs')).status).toBe(200);
    const before = await stored(workflowId);
    const refused = await save(workflowId, 'Mine', etag);
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual({
      statusCode: 412,
      error: 'Precondition Failed',
      message: expect.stringMatching(/saved or deleted after .* \(If-Match\): read it again/),
      path: path(workflowId),
      timestamp: expect.any(String),
    });
    expect(await stored(workflowId)).toEqual(before);
  });

  it('lets exactly one of two concurrent saves of the same version win', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { workflowId, etag } = await created();
      const answers = await Promise.all([save(workflowId, 'Alice', etag), save(workflowId, 'Bob', etag)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
      const winner = answers.find((answer) => answer.status === 200)!;
      expect((await stored(workflowId)).name).toBe(winner.body.name);
    }
  });

  it('checks the version in the UPDATE itself: a save that read the old row before the other wrote still loses', async () => {
    const { workflowId } = await created();
    const writer = t.app.get(WorkflowWriter);
    const read = await stored(workflowId);
    const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
    await writer.update(scope, read, { name: 'Alice' }, read.updatedAt);
    await expect(writer.update(scope, read, { name: 'Bob' }, read.updatedAt)).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
    });
    expect((await stored(workflowId)).name).toBe('Alice');
  });

  it('saves as before without If-Match or with *, and refuses a malformed one (400)', async () => {
    const { workflowId, etag } = await created();
    expect((await save(workflowId, 'Plain')).status).toBe(200);
    expect((await save(workflowId, 'Plain again')).status).toBe(200);
    expect((await save(workflowId, 'Any', '*')).status).toBe(200);
    for (const malformed of ['yesterday', `W/${etag}`, `${etag}, ${etag}`, '"not a date"']) {
      const res = await save(workflowId, 'Malformed', malformed);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
        message: expect.stringMatching(/If-Match/),
      });
    }
    expect((await stored(workflowId)).name).toBe('Any');
  });

  it('answers 404 for a workflow deleted since, and works for a dashboard editor', async () => {
    const { workflowId, etag } = await created();
    expect((await t.api('delete', path(workflowId))).status).toBe(204);
    expect((await save(workflowId, 'Ghost', etag)).status).toBe(404);
    const editor = await signedIn(t, 'editor');
    const other = await created();
    const saved = await editor
      .send('put', path(other.workflowId))
      .set('If-Match', other.etag)
      .send({ name: 'E', steps: [] });
    expect(saved.status).toBe(200);
    const stale = await editor
      .send('put', path(other.workflowId))
      .set('If-Match', other.etag)
      .send({ name: 'F', steps: [] });
    expect(stale.status).toBe(412);
  });

  it('documents If-Match, the ETag and the 412 in the OpenAPI document', async () => {
    const { paths } = (await t.http.get('/api-docs-json')).body;
    const put = paths['/v2/workflows/{workflowId}'].put;
    expect(put.parameters).toContainEqual(expect.objectContaining({ name: 'If-Match', in: 'header', required: false }));
    expect(put.responses['412']).toBeDefined();
    expect(put.responses['200'].headers.ETag).toBeDefined();
    expect(paths['/v2/workflows/{workflowId}'].get.responses['200'].headers.ETag).toBeDefined();
  });
});
