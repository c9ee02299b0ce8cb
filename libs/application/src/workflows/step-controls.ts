import type { FieldErrors } from '#common';
import type { StepInput } from './workflow-input.js';

/**
 * A v2 step's `controlValues` and the stored step (template + metadata) the engine runs. A v2 write
 * keeps the controls as written on the stored step and derives its template and metadata from them;
 * a v1 step read through v2 gets controls derived from its template and metadata.
 */
type Controls = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keeps the keys whose value is defined, so a stored template carries no `undefined`. */
const defined = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'stringOrArray' | 'stringOrNull';

const KIND_CHECKS: Record<Kind, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  object: isObject,
  array: Array.isArray,
  stringOrArray: (value) => typeof value === 'string' || Array.isArray(value),
  stringOrNull: (value) => value === null || typeof value === 'string',
};

const KIND_MESSAGES: Record<Kind, string> = {
  string: 'must be a string',
  number: 'must be a number',
  boolean: 'must be a boolean',
  object: 'must be an object',
  array: 'must be an array',
  stringOrArray: 'must be a string or a list of { key, value } pairs',
  stringOrNull: 'must be a string or null',
};

/** The controls each step type reads, with their JSON kind; other keys are kept as written and not read. */
const CONTROL_KINDS: Record<string, Record<string, Kind>> = {
  in_app: {
    subject: 'string',
    body: 'string',
    avatar: 'string',
    primaryAction: 'object',
    secondaryAction: 'object',
    redirect: 'object',
    data: 'object',
    disableOutputSanitization: 'boolean',
  },
  email: {
    subject: 'string',
    body: 'string',
    layoutId: 'stringOrNull',
    editorType: 'string',
    preheader: 'string',
    disableOutputSanitization: 'boolean',
  },
  sms: { body: 'string' },
  chat: { body: 'string', editorType: 'string' },
  push: { subject: 'string', body: 'string' },
  delay: { type: 'string', amount: 'number', unit: 'string', cron: 'string' },
  digest: {
    type: 'string',
    amount: 'number',
    unit: 'string',
    digestKey: 'string',
    lookBackWindow: 'object',
    cron: 'string',
  },
  throttle: {
    type: 'string',
    amount: 'number',
    unit: 'string',
    dynamicKey: 'string',
    threshold: 'number',
    throttleKey: 'string',
  },
  http_request: {
    url: 'string',
    method: 'string',
    headers: 'array',
    body: 'stringOrArray',
    continueOnFailure: 'boolean',
  },
};

/** Read by every step type: a JSON Logic rule that skips the step when it holds. */
const SKIP_KIND: Kind = 'object';

/**
 * Controls of the wrong JSON kind and the forms this service does not run (cron schedules), as
 * `{ 'steps[0].controlValues.body': { messages } }`. The finer rules (lengths, units, windows) are
 * the stored step's, checked by the caller on the derived step.
 */
export function controlKindErrors(type: string, controls: Controls, path: string): FieldErrors {
  const kinds = { ...(CONTROL_KINDS[type] ?? {}), skip: SKIP_KIND };
  const errors: FieldErrors = {};
  for (const [key, kind] of Object.entries(kinds)) {
    const value = controls[key];
    if (value !== undefined && !KIND_CHECKS[kind](value))
      errors[`${path}.${key}`] = { messages: [`${key} ${KIND_MESSAGES[kind]}`], value };
  }
  for (const key of ['redirect', 'primaryAction.redirect', 'secondaryAction.redirect']) {
    const holder = key.split('.').reduce<unknown>((at, part) => (isObject(at) ? at[part] : undefined), controls);
    if (isObject(holder) && typeof holder.url !== 'string')
      errors[`${path}.${key}.url`] = { messages: ['url must be a string'], value: holder.url };
  }
  if ((type === 'delay' || type === 'digest') && (controls.type === 'timed' || controls.cron !== undefined))
    errors[`${path}.cron`] = {
      messages: ['timed (cron) schedules are not supported: use amount and unit'],
      value: controls.cron,
    };
  if (type === 'http_request' && typeof controls.body === 'string' && !isObject(parseJson(controls.body)))
    errors[`${path}.body`] = { messages: ['body must be a JSON object or a list of { key, value } pairs'] };
  return errors;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function button(type: 'primary' | 'secondary', action: unknown): Record<string, unknown> | undefined {
  if (!isObject(action)) return undefined;
  const redirect = isObject(action.redirect) ? action.redirect : undefined;
  return defined({
    type,
    content: typeof action.label === 'string' ? action.label : '',
    url: redirect?.url,
    ...(redirect ? { redirect: defined({ url: redirect.url, target: redirect.target }) } : {}),
  });
}

/** The inbox cta of in-app controls: the redirect of the message and its two buttons. */
function inAppCta(controls: Controls): Record<string, unknown> | undefined {
  const buttons = [button('primary', controls.primaryAction), button('secondary', controls.secondaryAction)].filter(
    (item) => item !== undefined,
  );
  const redirect = isObject(controls.redirect) ? controls.redirect : undefined;
  if (!redirect && buttons.length === 0) return undefined;
  return {
    type: 'redirect',
    data: redirect ? defined({ url: redirect.url, target: redirect.target }) : {},
    ...(buttons.length ? { action: { buttons } } : {}),
  };
}

type StepShape = Pick<StepInput, 'template' | 'metadata'>;

const fromControls: Record<string, (controls: Controls) => StepShape> = {
  in_app: (c) => ({
    template: defined({
      type: 'in_app',
      content: c.body ?? '',
      subject: c.subject,
      avatar: c.avatar,
      data: c.data,
      cta: inAppCta(c),
    }) as StepShape['template'],
  }),
  email: (c) => ({
    template: defined({
      type: 'email',
      subject: c.subject ?? '',
      content: c.body ?? '',
      contentType: c.editorType === 'html' ? 'customHtml' : 'editor',
      layoutId: typeof c.layoutId === 'string' ? c.layoutId : undefined,
      preheader: c.preheader,
    }) as StepShape['template'],
  }),
  sms: (c) => ({ template: { type: 'sms', content: c.body ?? '' } as StepShape['template'] }),
  chat: (c) => ({ template: { type: 'chat', content: c.body ?? '' } as StepShape['template'] }),
  push: (c) => ({ template: { type: 'push', title: c.subject ?? '', content: c.body ?? '' } as StepShape['template'] }),
  delay: (c) => ({
    template: { type: 'delay' },
    metadata: defined({ type: 'regular', amount: c.amount, unit: c.unit }),
  }),
  digest: (c) => {
    const lookBack = isObject(c.lookBackWindow) ? c.lookBackWindow : undefined;
    return {
      template: { type: 'digest' },
      metadata: defined({
        type: 'regular',
        amount: c.amount,
        unit: c.unit,
        digestKey: c.digestKey,
        ...(lookBack ? { backoff: true, backoffAmount: lookBack.amount, backoffUnit: lookBack.unit } : {}),
      }),
    };
  },
  throttle: (c) => ({
    template: { type: 'throttle' },
    metadata: defined({
      type: c.type ?? 'fixed',
      amount: c.amount,
      unit: c.unit,
      dynamicKey: c.dynamicKey,
      threshold: c.threshold,
      throttleKey: c.throttleKey,
    }),
  }),
  http_request: (c) => ({
    template: { type: 'http_request' },
    metadata: defined({
      url: c.url,
      method: c.method ?? 'POST',
      headers: c.headers,
      body: typeof c.body === 'string' ? parseJson(c.body) : c.body,
      continueOnFailure: c.continueOnFailure,
    }),
  }),
};

/** The stored step's template and metadata for v2 controls (already checked by controlKindErrors). */
export function stepShapeFromControls(type: string, controls: Controls): StepShape {
  const build = fromControls[type];
  return build ? build(controls) : { template: { type } };
}

/** Where a rule of the derived step is reported in the v2 body: `template.content` → `controlValues.body`. */
const FIELD_RENAMES: [RegExp, string][] = [
  [/^template\.content/, 'body'],
  [/^template\.title/, 'subject'],
  [/^template\.contentType/, 'editorType'],
  [/^template\.cta\.data/, 'redirect'],
  [/^template\.cta\.action\.buttons\[0\]\.content/, 'primaryAction.label'],
  [/^template\.cta\.action\.buttons\[1\]\.content/, 'secondaryAction.label'],
  [/^template\.cta\.action\.buttons\[0\](\.redirect)?/, 'primaryAction.redirect'],
  [/^template\.cta\.action\.buttons\[1\](\.redirect)?/, 'secondaryAction.redirect'],
  [/^metadata\.backoffAmount/, 'lookBackWindow.amount'],
  [/^metadata\.backoffUnit/, 'lookBackWindow.unit'],
  [/^template\./, ''],
  [/^metadata\./, ''],
];

/** `template.content` → `body`, relative to the step's controlValues. */
export function controlPath(storedPath: string): string {
  for (const [pattern, replacement] of FIELD_RENAMES) {
    if (!pattern.test(storedPath)) continue;
    const rest = storedPath.replace(pattern, '');
    return replacement ? `${replacement}${rest}` : rest.replace(/^\./, '');
  }
  return storedPath;
}
