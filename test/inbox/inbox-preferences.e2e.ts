import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Novu } from '@novu/js';
import { createWorkflow, inApp, step } from '../support/engine-fixtures.js';
import { openInbox, postSession, startInboxApp, type InboxApp } from './inbox-app.js';

const weeklySchedule = {
  monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] },
  saturday: { isEnabled: false },
};

/** Preferences through @novu/js, checked afterwards through the API-key route. */
describe('inbox preferences through @novu/js', () => {
  let app: InboxApp;
  let novu: Novu;
  let workflowRowId: string;

  const v2Preferences = async (subscriberId: string) => {
    const res = await app.t.api('get', `/v2/subscribers/${subscriberId}/preferences`);
    expect(res.status).toBe(200);
    return res.body as {
      global: { channels: Record<string, boolean>; schedule?: unknown };
      workflows: { workflow: { identifier: string }; channels: Record<string, boolean> }[];
    };
  };

  beforeAll(async () => {
    app = await startInboxApp();
    const email = step({ template: { type: 'email', subject: 'Hi', content: 'Hello' } });
    workflowRowId = (await createWorkflow(app.t, { identifier: 'pref-digest', steps: [inApp('Hi'), email] })).id;
    await createWorkflow(app.t, { identifier: 'pref-other', steps: [inApp('Other')] });
    await createWorkflow(app.t, { identifier: 'pref-critical', steps: [inApp('Alarm')], critical: true });
    ({ novu } = await openInbox(app, { subscriberId: 'pref-pat' }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists the global entry then the non-critical workflows with their ids and channels', async () => {
    const { data, error } = await novu.preferences.list();
    expect(error).toBeUndefined();
    expect(data!.map((preference) => [preference.level, preference.workflow?.identifier])).toEqual([
      ['global', undefined],
      ['template', 'pref-digest'],
      ['template', 'pref-other'],
    ]);
    expect(data![0]).toMatchObject({
      enabled: true,
      channels: { email: true, sms: true, in_app: true, chat: true, push: true },
    });
    expect(data![1]).toMatchObject({
      enabled: true,
      channels: { in_app: true, email: true },
      workflow: { id: workflowRowId, identifier: 'pref-digest', critical: false },
    });
    const critical = await novu.preferences.list({ criticality: 'critical' as never });
    expect(critical.data!.map((preference) => preference.workflow?.identifier)).toEqual([undefined, 'pref-critical']);
  });

  it('a workflow update, a bulk update and a global update are what GET /v2/subscribers/{id}/preferences shows', async () => {
    const [, digest] = (await novu.preferences.list()).data!;
    const updated = await digest.update({ channels: { email: false } });
    expect(updated.error).toBeUndefined();
    expect(updated.data).toMatchObject({ level: 'template', channels: { email: false, in_app: true } });
    let stored = await v2Preferences('pref-pat');
    expect(stored.workflows.find((w) => w.workflow.identifier === 'pref-digest')?.channels).toEqual({
      in_app: true,
      email: false,
    });

    const bulk = await novu.preferences.bulkUpdate([{ workflowId: 'pref-other', channels: { in_app: false } }]);
    expect(bulk.error).toBeUndefined();
    expect(bulk.data!.map((preference) => preference.channels)).toEqual([{ in_app: false }]);
    stored = await v2Preferences('pref-pat');
    expect(stored.workflows.find((w) => w.workflow.identifier === 'pref-other')?.channels).toEqual({ in_app: false });

    const [global] = (await novu.preferences.list()).data!;
    const globalUpdate = await global.update({ channels: { sms: false } });
    expect(globalUpdate.error).toBeUndefined();
    expect(globalUpdate.data).toMatchObject({ level: 'global', channels: { sms: false, email: true } });
    stored = await v2Preferences('pref-pat');
    expect(stored.global.channels).toMatchObject({ sms: false, email: true });
  });

  it('the schedule round trip: set through the client, read back by the client and the API', async () => {
    const set = await novu.preferences.schedule.update({ isEnabled: true, weeklySchedule });
    expect(set.error).toBeUndefined();
    expect(set.data).toMatchObject({ isEnabled: true, weeklySchedule: { monday: weeklySchedule.monday } });
    const read = await novu.preferences.schedule.get();
    expect(read.data).toMatchObject({ isEnabled: true, weeklySchedule: { monday: weeklySchedule.monday } });
    expect((await v2Preferences('pref-pat')).global.schedule).toMatchObject({
      isEnabled: true,
      weeklySchedule: { monday: weeklySchedule.monday, saturday: { isEnabled: false } },
    });
    const invalid = await novu.preferences.schedule.update({
      isEnabled: true,
      weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '25:00 PM', end: '05:00 PM' }] } },
    });
    expect((invalid.error?.originalError as { status?: number } | undefined)?.status).toBe(422);
    expect((await v2Preferences('pref-pat')).global.schedule).toMatchObject({
      weeklySchedule: { monday: weeklySchedule.monday },
    });
  });

  it('refuses an unknown or critical workflow (404, 400) and leaves the preferences as they were', async () => {
    const before = await v2Preferences('pref-pat');
    const unknown = await novu.preferences.update({ workflowId: 'pref-none', channels: { in_app: false } });
    expect((unknown.error?.originalError as { status?: number } | undefined)?.status).toBe(404);
    const critical = await novu.preferences.update({ workflowId: 'pref-critical', channels: { in_app: false } });
    expect((critical.error?.originalError as { status?: number } | undefined)?.status).toBe(400);
    expect(await v2Preferences('pref-pat')).toEqual(before);
  });

  it('a session with defaultSchedule stores it only while the subscriber has none', async () => {
    const raw = (subscriberId: string, defaultSchedule: unknown) =>
      postSession(app, { subscriber: { subscriberId }, defaultSchedule });
    expect((await raw('pref-new', { isEnabled: true, weeklySchedule })).status).toBe(201);
    expect((await v2Preferences('pref-new')).global.schedule).toMatchObject({ isEnabled: true });
    expect((await raw('pref-new', { isEnabled: false })).status).toBe(201);
    expect((await v2Preferences('pref-new')).global.schedule).toMatchObject({ isEnabled: true });
    expect((await raw('pref-bad', { isEnabled: 'yes' })).status).toBe(422);
    expect((await app.t.api('get', '/v2/subscribers/pref-bad')).status).toBe(404);
  });
});
