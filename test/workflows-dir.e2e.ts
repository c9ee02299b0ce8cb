import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoadWorkflowsDirectoryUseCase } from '#api/workflows/use-cases/load-workflows-directory.use-case.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const welcomeJson = {
  name: 'Welcome',
  identifier: 'welcome',
  steps: [{ name: 'Inbox', template: { type: 'in_app', content: 'Hi {{ payload.name }}' } }],
};

const digestYaml = `
name: Daily digest
tags: [git]
steps:
  - template:
      type: digest
    metadata:
      type: regular
      amount: 1
      unit: days
  - template:
      type: email
      subject: "{{ step.total_count }} updates"
      content: "{{ payload.title }}"
`;

function directoryWith(files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), 'workflows-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(directory, name), content);
  return directory;
}

describe('WORKFLOWS_DIR: workflows kept in files, upserted at boot', () => {
  let t: TestApp;
  let directory: string;

  beforeAll(async () => {
    directory = directoryWith({
      'welcome.json': JSON.stringify(welcomeJson),
      'digest.yaml': digestYaml,
      'README.md': '# not a workflow',
    });
    t = await startTestApp({ env: { WORKFLOWS_DIR: directory } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('creates every json and yaml file as a workflow of the Development environment', async () => {
    const welcome = await t.api('get', '/v1/workflows/welcome');
    expect(welcome.status).toBe(200);
    expect(welcome.body).toMatchObject({
      name: 'Welcome',
      active: true,
      triggers: [{ identifier: 'welcome', variables: [{ name: 'name' }] }],
    });
    const digest = await t.api('get', '/v1/workflows/daily-digest');
    expect(digest.status).toBe(200);
    expect(digest.body.tags).toEqual(['git']);
    expect(digest.body.steps.map((step: { template: { type: string } }) => step.template.type)).toEqual([
      'digest',
      'email',
    ]);
    expect((await t.api('get', '/v1/workflows')).body.totalCount).toBe(2);
    // /v2/workflows reads them as written from files.
    expect((await t.api('get', '/v2/workflows/welcome')).body).toMatchObject({
      origin: 'external',
      workflowId: 'welcome',
    });
    const production = await t.createKeyFor('Production');
    expect((await t.api('get', '/v1/workflows/welcome', production.apiKey)).status).toBe(404);
  });

  it('a later boot replaces the workflow from its file, keeping its id and step ids', async () => {
    const before = (await t.api('get', '/v1/workflows/welcome')).body;
    writeFileSync(
      join(directory, 'welcome.json'),
      JSON.stringify({ ...welcomeJson, description: 'edited in git', active: false }),
    );
    await t.app.get(LoadWorkflowsDirectoryUseCase).execute();
    const after = (await t.api('get', '/v1/workflows/welcome')).body;
    expect(after).toMatchObject({ _id: before._id, description: 'edited in git', active: false });
    expect(after.steps.map((step: { _id: string }) => step._id)).toEqual(
      before.steps.map((step: { _id: string }) => step._id),
    );
    expect((await t.api('get', '/v1/workflows')).body.totalCount).toBe(2);
    // /v2/workflows reads them as written from files.
    expect((await t.api('get', '/v2/workflows/welcome')).body).toMatchObject({
      origin: 'external',
      workflowId: 'welcome',
    });
  });
});

describe('WORKFLOWS_DIR: an invalid file stops the boot', () => {
  const cases: Array<[string, Record<string, string>, RegExp[]]> = [
    [
      'a bad field names the file and the path',
      { 'good.json': JSON.stringify(welcomeJson), 'bad.yaml': digestYaml.replace('unit: days', 'unit: fortnights') },
      [/bad\.yaml/, /steps\[0\]\.metadata\.unit/],
    ],
    [
      'a template that names a file',
      {
        'good.json': JSON.stringify(welcomeJson),
        'probe.json': JSON.stringify({
          name: 'Probe',
          steps: [{ template: { type: 'in_app', content: "{% render 'package.json' %}" } }],
        }),
      },
      [/probe\.json/, /steps\[0\]\.template\.content/, /is not available: templates cannot load files/],
    ],
    [
      'a template syntax error',
      {
        'broken-template.json': JSON.stringify({
          name: 'Broken',
          steps: [{ template: { type: 'in_app', content: '{% if %}x' } }],
        }),
      },
      [/broken-template\.json/, /steps\[0\]\.template\.content/],
    ],
    ['unparsable JSON names the file', { 'broken.json': '{"name": ' }, [/broken\.json/, /not valid JSON/]],
    ['a missing name', { 'nameless.yml': 'steps: []' }, [/nameless\.yml/, /name/]],
    [
      'two files with one identifier',
      { 'a.json': JSON.stringify(welcomeJson), 'b.json': JSON.stringify({ ...welcomeJson, name: 'Other' }) },
      [/b\.json/, /identifier/, /a\.json/],
    ],
  ];

  it.each(cases)('%s', async (_name, files, patterns) => {
    const directory = directoryWith(files);
    try {
      let failure: Error | undefined;
      await startTestApp({ env: { WORKFLOWS_DIR: directory } }).then(
        (app) => app.close(),
        (error: Error) => {
          failure = error;
        },
      );
      expect(failure).toBeDefined();
      for (const pattern of patterns) expect(failure?.message).toMatch(pattern);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
