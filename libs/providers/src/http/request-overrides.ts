import type { ProviderOverrides } from '../provider.js';
import type { ProviderCall } from './provider-request.js';

/** Keys a merge never writes: they would reach Object.prototype instead of the request. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Headers the transport owns: a passthrough setting them would break or smuggle the request. */
const TRANSPORT_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'te']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `patch` deep-merged over `base` (objects merge, anything else replaces); neither is changed. */
function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (UNSAFE_KEYS.has(key)) continue;
    const current = merged[key];
    merged[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : value;
  }
  return merged;
}

/**
 * The call with a trigger's provider overrides applied: the fields merged into the JSON body (at
 * `root`, the object of the body that holds the message, for APIs that wrap it) or added to the form,
 * then `_passthrough` body, headers and query merged last. The URL's origin never changes, so the
 * SSRF guard still decides where the request goes.
 */
export function withOverrides(
  call: ProviderCall,
  overrides: ProviderOverrides | undefined,
  root?: string,
): ProviderCall {
  if (!overrides) return call;
  const { fields, passthrough } = overrides;
  const next: ProviderCall = { ...call };
  if (isObject(call.json)) {
    const body = root
      ? { ...call.json, [root]: deepMerge(isObject(call.json[root]) ? call.json[root] : {}, fields) }
      : deepMerge(call.json, fields);
    next.json = passthrough?.body ? deepMerge(body, passthrough.body) : body;
  } else if (call.form) {
    const form = new URLSearchParams(call.form);
    for (const [key, value] of Object.entries({ ...fields, ...passthrough?.body }))
      if (!UNSAFE_KEYS.has(key)) form.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    next.form = form;
  }
  if (passthrough?.headers) {
    const headers = { ...call.headers };
    for (const [name, value] of Object.entries(passthrough.headers))
      if (!TRANSPORT_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
    next.headers = headers;
  }
  if (passthrough?.query && Object.keys(passthrough.query).length > 0) {
    const url = new URL(call.url);
    for (const [key, value] of Object.entries(passthrough.query)) url.searchParams.set(key, String(value));
    next.url = url.toString();
  }
  return next;
}
