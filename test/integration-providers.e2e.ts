import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHAT_PROVIDER_IDS, PUSH_PROVIDER_IDS } from '#providers';
import { signedIn } from './support/dashboard.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Provider {
  providerId: string;
  channel: string;
  displayName: string;
  credentials: { name: string; label: string; secret: boolean; required: boolean; type: string }[];
}

describe('GET /v1/integrations/providers', () => {
  let t: TestApp;
  let providers: Provider[];

  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.api('get', '/v1/integrations/providers');
    expect(res.status).toBe(200);
    providers = res.body;
  });
  afterAll(async () => {
    await t?.close();
  });

  const byId = (providerId: string) => providers.find((provider) => provider.providerId === providerId);

  it('lists every provider of the registry once, with its channel and name', () => {
    const ids = providers.map((provider) => provider.providerId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([...CHAT_PROVIDER_IDS, ...PUSH_PROVIDER_IDS, 'sendgrid', 'twilio']));
    expect(byId('ses')).toMatchObject({ channel: 'email', displayName: 'Amazon SES' });
    expect(byId('twilio')?.channel).toBe('sms');
    expect(byId('slack')).toMatchObject({ channel: 'chat', credentials: [] });
  });

  it('describes each credential field: label, secret, required, type', () => {
    expect(byId('sendgrid')?.credentials).toEqual(
      expect.arrayContaining([
        { name: 'apiKey', label: 'API key', secret: true, required: true, type: 'string' },
        { name: 'from', label: 'From address', secret: false, required: true, type: 'string' },
        { name: 'ipPoolName', label: 'IP pool name', secret: false, required: false, type: 'string' },
      ]),
    );
    expect(byId('nodemailer')?.credentials).toContainEqual(
      expect.objectContaining({ name: 'secure', type: 'boolean', secret: false }),
    );
    expect(byId('fcm')?.credentials).toEqual([
      expect.objectContaining({ name: 'serviceAccount', type: 'text', secret: true, required: true }),
    ]);
  });

  it('names only credentials the integration routes accept, and is in the OpenAPI document', async () => {
    const document = (await t.http.get('/api-docs-json')).body;
    const accepted = Object.keys(document.components.schemas.IntegrationCredentialsDto.properties);
    const named = providers.flatMap((provider) => provider.credentials.map((credential) => credential.name));
    expect(accepted).toEqual(expect.arrayContaining(named));
    expect(document.paths['/v1/integrations/providers'].get.responses['200']).toBeDefined();
  });

  it('answers a viewer of the dashboard, and 401 without a key', async () => {
    const viewer = await signedIn(t, 'viewer');
    expect((await viewer.send('get', '/v1/integrations/providers')).body).toEqual(providers);
    expect((await t.http.get('/v1/integrations/providers')).status).toBe(401);
  });
});
