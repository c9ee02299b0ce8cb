import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectErrorDto, expectUntypedError, expectValidationError, startSdkApp, type SdkApp } from './sdk-app.js';

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

describe('@novu/api: integrations', () => {
  let sdk: SdkApp;
  beforeAll(async () => {
    sdk = await startSdkApp();
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it('integrations.create returns the integration with its credentials; the first email one is primary', async () => {
    const { result } = await sdk.novu.integrations.create({
      name: 'Mail',
      identifier: 'sdk-mail',
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: 'SG.secret', from: 'no-reply@example.com' },
      active: true,
    });
    expect(result).toMatchObject({
      name: 'Mail',
      identifier: 'sdk-mail',
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: 'SG.secret', from: 'no-reply@example.com' },
      active: true,
      deleted: false,
      primary: true,
      environmentId: sdk.t.environment.id,
    });
    expect(result).not.toHaveProperty('deletedAt');
    await expectErrorDto(
      sdk.novu.integrations.create({ identifier: 'sdk-mail', providerId: 'mailgun', channel: 'email' }),
      409,
    );
  });

  it('integrations.list contains the created integration', async () => {
    const { result: created } = await sdk.novu.integrations.create({ providerId: 'twilio', channel: 'sms' });
    const { result } = await sdk.novu.integrations.list();
    expect(result.map((row) => row.id)).toContain(created.id);
  });

  it('integrations.listActive lists active integrations only', async () => {
    const { result: inactive } = await sdk.novu.integrations.create({
      providerId: 'mailgun',
      channel: 'email',
      active: false,
    });
    const { result: active } = await sdk.novu.integrations.create({ providerId: 'slack', channel: 'chat' });
    const { result } = await sdk.novu.integrations.listActive();
    const ids = result.map((row) => row.id);
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(inactive.id);
    expect(result.every((row) => row.active)).toBe(true);
  });

  it('integrations.update changes the given fields; an unknown id is a typed 404', async () => {
    const { result: created } = await sdk.novu.integrations.create({
      name: 'Before',
      providerId: 'postmark',
      channel: 'email',
      credentials: { apiKey: 'k1' },
    });
    const { result } = await sdk.novu.integrations.update(
      { name: 'After', credentials: { apiKey: 'k2' } },
      created.id!,
    );
    expect(result).toMatchObject({
      id: created.id,
      name: 'After',
      credentials: { apiKey: 'k2' },
      providerId: 'postmark',
    });
    await expectUntypedError(sdk.novu.integrations.update({ name: 'x' }, UNKNOWN_ID), 404);
    await expectValidationError(sdk.novu.integrations.update({ name: 'x' }, 'not-an-id'));
  });

  it('integrations.setAsPrimary makes the integration the primary of its channel', async () => {
    const { result: first } = await sdk.novu.integrations.create({ providerId: 'plivo', channel: 'sms' });
    const { result: second } = await sdk.novu.integrations.create({ providerId: 'sns', channel: 'sms' });
    const { result } = await sdk.novu.integrations.setAsPrimary(second.id!);
    expect(result).toMatchObject({ id: second.id, primary: true, channel: 'sms' });
    const primaries = (await sdk.novu.integrations.list()).result.filter((row) => row.channel === 'sms' && row.primary);
    expect(primaries.map((row) => row.id)).toEqual([second.id]);
    expect(primaries.map((row) => row.id)).not.toContain(first.id);
    await expectUntypedError(sdk.novu.integrations.setAsPrimary(UNKNOWN_ID), 404);
  });

  it('integrations.delete returns the remaining integrations; the deleted one leaves the list', async () => {
    const { result: doomed } = await sdk.novu.integrations.create({ providerId: 'discord', channel: 'chat' });
    const before = (await sdk.novu.integrations.list()).result.length;
    const { result } = await sdk.novu.integrations.delete(doomed.id!);
    expect(result.map((row) => row.id)).not.toContain(doomed.id);
    expect(result).toHaveLength(before - 1);
    expect((await sdk.novu.integrations.list()).result.map((row) => row.id)).not.toContain(doomed.id);
    await expectErrorDto(sdk.novu.integrations.delete(doomed.id!), 404);
  });
});
