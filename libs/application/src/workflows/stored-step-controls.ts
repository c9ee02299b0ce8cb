import type { StoredStep } from '#dal';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keeps the keys whose value is defined, so the controls carry no `undefined`. */
const defined = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

function actionOf(buttonValue: unknown): Record<string, unknown> | undefined {
  if (!isObject(buttonValue)) return undefined;
  const redirect = isObject(buttonValue.redirect) ? buttonValue.redirect : undefined;
  const url = typeof buttonValue.url === 'string' ? buttonValue.url : redirect?.url;
  return defined({
    label: typeof buttonValue.content === 'string' ? buttonValue.content : undefined,
    redirect: typeof url === 'string' ? defined({ url, target: redirect?.target }) : undefined,
  });
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Controls for a stored step written without them (through /v1/workflows or WORKFLOWS_DIR). */
export function controlsFromStoredStep(
  step: Pick<StoredStep, 'template' | 'metadata' | 'controlValues'>,
): Record<string, unknown> {
  if (step.controlValues) return step.controlValues;
  const t = step.template;
  const m = step.metadata ?? {};
  switch (t.type) {
    case 'in_app': {
      const cta = isObject(t.cta) ? t.cta : {};
      const data = isObject(cta.data) ? cta.data : {};
      const buttons =
        isObject(cta.action) && Array.isArray(cta.action.buttons) ? (cta.action.buttons as unknown[]) : [];
      return defined({
        subject: text(t.subject),
        body: text(t.content) ?? '',
        avatar: text(t.avatar),
        redirect: typeof data.url === 'string' ? defined({ url: data.url, target: text(data.target) }) : undefined,
        primaryAction: actionOf(buttons[0]),
        secondaryAction: actionOf(buttons[1]),
        data: isObject(t.data) ? t.data : undefined,
      });
    }
    case 'email':
      return defined({
        subject: text(t.subject) ?? '',
        body: typeof t.content === 'string' ? t.content : JSON.stringify(t.content ?? ''),
        editorType: t.contentType === 'customHtml' ? 'html' : 'block',
        layoutId: text(t.layoutId),
        preheader: text(t.preheader),
      });
    case 'sms':
    case 'chat':
      return { body: text(t.content) ?? '' };
    case 'push':
      return defined({ subject: text(t.title) ?? '', body: text(t.content) ?? '' });
    case 'digest':
      return defined({
        type: m.type === 'timed' ? 'timed' : 'regular',
        amount: m.amount,
        unit: m.unit,
        digestKey: m.digestKey,
        lookBackWindow: m.backoff ? defined({ amount: m.backoffAmount, unit: m.backoffUnit }) : undefined,
      });
    case 'delay':
      return defined({ type: 'regular', amount: m.amount, unit: m.unit });
    case 'http_request':
      return defined({
        url: m.url,
        method: m.method ?? 'POST',
        headers: m.headers,
        body: isObject(m.body) ? JSON.stringify(m.body) : m.body,
        continueOnFailure: m.continueOnFailure,
      });
    default:
      return { ...m };
  }
}
