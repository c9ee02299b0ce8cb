/** One control of a step, as its form shows it. */
export interface ControlField {
  key: string;
  label: string;
  kind: 'text' | 'textarea' | 'number' | 'select';
  options?: string[];
}

const UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'];
const subject: ControlField = { key: 'subject', label: 'Subject', kind: 'text' };
const body: ControlField = { key: 'body', label: 'Body', kind: 'textarea' };
const amount: ControlField = { key: 'amount', label: 'Amount', kind: 'number' };
const unit: ControlField = { key: 'unit', label: 'Unit', kind: 'select', options: UNITS };

export const STEP_TYPES = [
  'in_app',
  'email',
  'sms',
  'chat',
  'push',
  'digest',
  'delay',
  'throttle',
  'http_request',
] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** The form of each step type: the controls the API reads for it (subject, body, amount, url...). */
export const STEP_FORMS = {
  in_app: [subject, body],
  email: [subject, { ...body, label: 'Body (HTML)' }],
  sms: [body],
  chat: [body],
  push: [subject, body],
  digest: [amount, unit, { key: 'digestKey', label: 'Digest key', kind: 'text' }],
  delay: [amount, unit],
  throttle: [amount, unit, { key: 'threshold', label: 'Threshold', kind: 'number' }],
  http_request: [
    { key: 'url', label: 'URL', kind: 'text' },
    { key: 'method', label: 'Method', kind: 'select', options: ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] },
  ],
} satisfies Record<StepType, ControlField[]>;

/** A new step's controls: enough for the API to accept it, for the operator to fill in. */
export const NEW_STEP_CONTROLS: Record<StepType, Record<string, unknown>> = {
  in_app: { subject: '', body: '' },
  email: { subject: '', body: '', editorType: 'html' },
  sms: { body: '' },
  chat: { body: '' },
  push: { subject: '', body: '' },
  digest: { amount: 5, unit: 'minutes' },
  delay: { amount: 1, unit: 'minutes' },
  throttle: { amount: 1, unit: 'hours', threshold: 1 },
  http_request: { url: 'https://example.com/hook', method: 'POST' },
};

/** Step types whose message the API can render in a preview. */
export const PREVIEWABLE = new Set<string>(['in_app', 'email', 'sms', 'chat', 'push']);
