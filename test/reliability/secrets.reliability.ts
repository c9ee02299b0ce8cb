import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { loadConfig } from '#common';
import {
  ensureBuilt,
  freePort,
  startService,
  waitForHealthy,
  type ServiceProcess,
} from '../support/service-process.js';
import { TEST_ENCRYPTION_KEY } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/** Scenario 7: keys only as hashes, credentials encrypted at rest, no secret in a trace-level log. */
describe('secrets', () => {
  let database: TestDatabase;
  let service: ServiceProcess;
  let client: pg.Client;
  const apiKey = secret('key');
  const wrongKey = secret('wrong-key');
  const credentialValues = [secret('SG'), secret('smtp-password'), secret('slack-token'), secret('updated-SG')];
  const subscriberWebhook = `https://hooks.example.com/services/${secret('hook')}`;
  const variableValues = [secret('env-var'), secret('env-var-updated'), secret('env-var-rejected')];

  beforeAll(async () => {
    ensureBuilt();
    database = await createTestDatabase();
    const config = loadConfig({ ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });
    service = startService(
      {
        DATABASE_URL: database.databaseUrl!,
        ...(config.redisUrl ? { REDIS_URL: config.redisUrl } : {}),
        QUEUE_PREFIX: `secrets-${randomBytes(4).toString('hex')}`,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        API_KEY: apiKey,
        LOG_LEVEL: 'trace',
        ENABLE_TEST_ROUTES: 'true',
      },
      await freePort(),
    );
    await waitForHealthy(service, 60_000);
    client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await service?.stop();
    await database?.drop();
  });

  const call = (method: string, path: string, body?: unknown, key = apiKey) =>
    fetch(`http://127.0.0.1:${service.port}${path}`, {
      method,
      headers: {
        Authorization: `ApiKey ${key}`,
        'Content-Type': 'application/json',
        'X-Debug-Token': credentialValues[0],
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('exercises every path that handles a secret, then finds none of them at rest or in the logs', async () => {
    const created = await call('POST', '/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: credentialValues[0], from: 'a@example.com', password: credentialValues[1] },
      active: true,
    });
    expect(created.status).toBe(201);
    const integration = (await created.json()) as { _id: string };
    expect(
      (
        await call('POST', '/v1/integrations', {
          providerId: 'slack',
          channel: 'chat',
          credentials: { token: credentialValues[2] },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call('PUT', `/v1/integrations/${integration._id}`, {
          credentials: { apiKey: credentialValues[3], from: 'a@example.com' },
        })
      ).status,
    ).toBe(200);
    // Rejected requests carrying secrets are logged too: they must not carry them into the log.
    expect(
      (
        await call('PUT', `/v1/integrations/${integration._id}`, {
          credentials: { apiKey: 42, password: credentialValues[1] },
          active: 'yes',
        })
      ).status,
    ).toBe(422);
    expect((await call('GET', '/v1/integrations', undefined, wrongKey)).status).toBe(401);
    expect((await call('GET', '/v1/test/error')).status).toBeGreaterThanOrEqual(404);
    expect((await call('POST', '/v2/subscribers', { subscriberId: 'secret-holder' })).status).toBe(201);
    expect(
      (
        await call('PATCH', '/v1/subscribers/secret-holder/credentials', {
          providerId: 'slack',
          credentials: { webhookUrl: subscriberWebhook },
        })
      ).status,
    ).toBe(200);
    const listed = await (await call('GET', '/v1/integrations')).text();
    expect(listed.length).toBeGreaterThan(0);

    // Secret environment variables: created, updated and refused with their values in the body.
    const { _id: environmentId } = (await (await call('GET', '/v1/environments/me')).json()) as { _id: string };
    const variable = (value: string, key = 'SECRET_TOKEN') => ({
      key,
      isSecret: true,
      values: [{ _environmentId: environmentId, value }],
    });
    expect((await call('POST', '/v1/environment-variables', variable(variableValues[0]))).status).toBe(200);
    expect(
      (await call('PATCH', '/v1/environment-variables/SECRET_TOKEN', { values: variable(variableValues[1]).values }))
        .status,
    ).toBe(200);
    expect((await call('POST', '/v1/environment-variables', variable(variableValues[2], 'bad key'))).status).toBe(422);
    const variables = await (await call('GET', '/v1/environment-variables')).text();
    expect(variables).toContain('SECRET_TOKEN');
    for (const value of variableValues) expect(variables.includes(value)).toBe(false);

    // API keys: only a hash (sha256) and an 8-character prefix are stored.
    const keys = await client.query<{ key_hash: string; prefix: string }>('SELECT key_hash, prefix FROM api_keys');
    expect(keys.rows.map((row) => row.key_hash)).toContain(createHash('sha256').update(apiKey).digest('hex'));
    for (const row of keys.rows) expect(row.prefix.length).toBeLessThanOrEqual(8);

    // Integration credentials: an encrypted envelope; no value readable anywhere in the database.
    const integrations = await client.query<{ credentials: string }>('SELECT credentials FROM integrations');
    expect(integrations.rows).toHaveLength(2);
    const dump = await databaseText(client);
    for (const value of [apiKey, wrongKey, ...credentialValues, ...variableValues])
      expect(dump.includes(value)).toBe(false);

    // A template naming files (stored as an older version would have saved it): its job fails, no file text anywhere.
    const probes = [`{% render 'package.json' %}`, `{% include 'README.md' %}`, `{% layout 'tsconfig.json' %}x`];
    const fileTexts = ['package.json', 'README.md', 'tsconfig.json'].map((file) =>
      readFileSync(file, 'utf8').split('\n').slice(0, 3).join('\n'),
    );
    for (const [index, probe] of probes.entries()) {
      const workflow = await call('POST', '/v1/workflows', {
        name: `file probe ${index}`,
        steps: [{ template: { type: 'in_app', content: 'placeholder' } }],
      });
      expect(workflow.status).toBe(201);
      const { _id: workflowId, triggers } = (await workflow.json()) as {
        _id: string;
        triggers: { identifier: string }[];
      };
      await client.query(
        `UPDATE workflows SET steps = jsonb_set(steps, '{0,template,content}', to_jsonb($1::text)) WHERE id = $2`,
        [probe, workflowId],
      );
      const triggered = await call('POST', '/v1/events/trigger', { name: triggers[0].identifier, to: 'secret-holder' });
      expect(triggered.status).toBe(201);
      const { transactionId } = (await triggered.json()) as { transactionId: string };
      await waitFor(
        async () =>
          (await client.query(`SELECT 1 FROM jobs WHERE transaction_id = $1 AND status = 'failed'`, [transactionId]))
            .rowCount === 1,
        {
          timeoutMs: 60_000,
          description: `the file probe ${probe} to fail`,
        },
      );
    }
    const withProbes = await databaseText(client);
    for (const text of fileTexts) expect(withProbes.includes(text)).toBe(false);

    // Logs of the whole run at trace level.
    await service.stop();
    const output = service.output();
    expect(output).toContain('request completed');
    const leaked = [apiKey, wrongKey, ...credentialValues, ...variableValues, subscriberWebhook, ...fileTexts].filter(
      (value) => output.includes(value),
    );
    expect(leaked).toEqual([]);
  });
});

/** Every row of every table as text. */
async function databaseText(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  let text = '';
  for (const { table_name: table } of rows) {
    const result = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${table}" t`);
    text += result.rows.map((row) => row.row).join('\n');
  }
  return text;
}
