import { describe, expect, it } from '@jest/globals';
import { controlKindErrors, controlPath, stepShapeFromControls } from './step-controls.js';
import { controlsFromStoredStep } from './stored-step-controls.js';

describe('stepShapeFromControls', () => {
  it('turns in-app controls into the inbox template and back', () => {
    const controls = {
      subject: 'S',
      body: 'B {{payload.x}}',
      avatar: 'https://a.example/x.png',
      redirect: { url: '/r', target: '_blank' },
      primaryAction: { label: 'Go', redirect: { url: '/go' } },
      secondaryAction: { label: 'Later' },
      data: { k: 'v' },
    };
    const { template } = stepShapeFromControls('in_app', controls);
    expect(template).toEqual({
      type: 'in_app',
      subject: 'S',
      content: 'B {{payload.x}}',
      avatar: 'https://a.example/x.png',
      data: { k: 'v' },
      cta: {
        type: 'redirect',
        data: { url: '/r', target: '_blank' },
        action: {
          buttons: [
            { type: 'primary', content: 'Go', url: '/go', redirect: { url: '/go' } },
            { type: 'secondary', content: 'Later' },
          ],
        },
      },
    });
    expect(controlsFromStoredStep({ template })).toEqual(controls);
  });

  it('maps waits and calls onto the v1 metadata forms', () => {
    expect(
      stepShapeFromControls('digest', { amount: 5, unit: 'minutes', lookBackWindow: { amount: 1, unit: 'minutes' } })
        .metadata,
    ).toEqual({ type: 'regular', amount: 5, unit: 'minutes', backoff: true, backoffAmount: 1, backoffUnit: 'minutes' });
    expect(stepShapeFromControls('delay', { amount: 2, unit: 'hours' }).metadata).toEqual({
      type: 'regular',
      amount: 2,
      unit: 'hours',
    });
    expect(stepShapeFromControls('http_request', { url: 'https://x.example', body: '{"a":1}' }).metadata).toEqual({
      url: 'https://x.example',
      method: 'POST',
      body: { a: 1 },
    });
    expect(stepShapeFromControls('push', { subject: 'T', body: 'B' }).template).toEqual({
      type: 'push',
      title: 'T',
      content: 'B',
    });
  });

  it('keeps stored controls as written', () => {
    const controlValues = { body: 'x', custom: 1 };
    expect(controlsFromStoredStep({ template: { type: 'sms', content: 'other' }, controlValues })).toBe(controlValues);
  });
});

describe('controlKindErrors', () => {
  it('names controls of the wrong kind, a redirect without url, cron schedules and a text body that is not JSON', () => {
    expect(Object.keys(controlKindErrors('in_app', { body: 1, redirect: {}, skip: 'yes' }, 'c'))).toEqual([
      'c.body',
      'c.skip',
      'c.redirect.url',
    ]);
    expect(Object.keys(controlKindErrors('delay', { type: 'timed', cron: '* * * * *' }, 'c'))).toEqual(['c.cron']);
    expect(Object.keys(controlKindErrors('http_request', { url: 'https://x', body: 'not json' }, 'c'))).toEqual([
      'c.body',
    ]);
    expect(controlKindErrors('sms', { body: 'fine', extra: { kept: true } }, 'c')).toEqual({});
  });
});

describe('controlPath', () => {
  it.each([
    ['template.content', 'body'],
    ['template.title', 'subject'],
    ['template.subject', 'subject'],
    ['template.cta.data.url', 'redirect.url'],
    ['template.cta.action.buttons[0].url', 'primaryAction.redirect.url'],
    ['template.cta.action.buttons[1].content', 'secondaryAction.label'],
    ['metadata.unit', 'unit'],
    ['metadata.backoffAmount', 'lookBackWindow.amount'],
    ['metadata.headers[0].value', 'headers[0].value'],
  ])('%s → %s', (stored, control) => {
    expect(controlPath(stored)).toBe(control);
  });
});
