import { ApiError } from '../../api/client';
import type { Integration, IntegrationInput, Provider } from './integrations-api';

export interface IntegrationFormValues {
  name: string;
  identifier: string;
  active: boolean;
  credentials: Record<string, string | boolean>;
  /** The conditions as JSON text, edited in the JSON editor. */
  conditions: string;
}

/** What the form starts with: the stored integration's values, secrets empty (they are never read back). */
export function formValues(provider: Provider, integration?: Integration): IntegrationFormValues {
  const stored = integration?.credentials ?? {};
  const credentials = Object.fromEntries(
    provider.credentials.map((field): [string, string | boolean] => {
      const value = field.secret ? undefined : stored[field.name];
      if (field.type === 'boolean') return [field.name, value === true || value === 'true'];
      return [field.name, typeof value === 'string' ? value : ''];
    }),
  );
  return {
    name: integration?.name ?? provider.displayName,
    identifier: integration?.identifier ?? '',
    active: integration?.active ?? true,
    credentials,
    conditions: JSON.stringify(integration?.conditions ?? [], null, 2),
  };
}

function parsedConditions(text: string): unknown[] {
  const refused = (message: string) => new ApiError(422, message, { conditions: [message] });
  let value: unknown;
  try {
    value = JSON.parse(text.trim() || '[]');
  } catch {
    throw refused('Conditions must be JSON');
  }
  if (!Array.isArray(value)) throw refused('Conditions must be a JSON array');
  return value;
}

/**
 * The request of a save. An empty secret is left out (the API keeps the stored one); an emptied visible
 * field is sent empty on an edit, which removes it.
 */
export function toInput(provider: Provider, values: IntegrationFormValues, editing: boolean): IntegrationInput {
  const credentials: Record<string, unknown> = {};
  for (const field of provider.credentials) {
    const value = values.credentials[field.name];
    if (field.type === 'boolean') credentials[field.name] = value === true;
    else if (typeof value === 'string' && value !== '') credentials[field.name] = value;
    else if (editing && !field.secret) credentials[field.name] = '';
  }
  return {
    name: values.name,
    ...(values.identifier ? { identifier: values.identifier } : {}),
    active: values.active,
    ...(provider.credentials.length > 0 ? { credentials } : {}),
    conditions: parsedConditions(values.conditions),
  };
}
