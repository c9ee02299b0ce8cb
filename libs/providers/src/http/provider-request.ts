import { Agent, fetch as undiciFetch } from 'undici';
import { ProviderError, type SendOptions } from '../provider.js';
import { assertPublicTarget, guardedLookup } from './target-guard.js';

export interface ProviderCall {
  /** Provider name used in error texts. */
  provider: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** A JSON value (sent as application/json), a form (application/x-www-form-urlencoded) or a ready string. */
  json?: unknown;
  form?: URLSearchParams;
  body?: string;
  /** Client-supplied targets (subscriber webhooks, integration baseUrl overrides) go through the SSRF guard. */
  guard?: boolean;
  /** Values that must never show in an error text or raw answer (header values are added automatically). */
  secrets?: unknown[];
}

export interface ProviderAnswer {
  status: number;
  ok: boolean;
  headers: Headers;
  /** The answer body, secrets redacted, cut to 2000 characters. */
  text: string;
  /** The parsed JSON body, or undefined. */
  data: unknown;
}

const MAX_RAW = 2000;

/**
 * The most of an answer body that is read (after decompression). Provider answers are small JSON;
 * a hostile or broken endpoint (client-supplied webhooks, baseUrl overrides) answering gigabytes
 * must not fill a worker's memory, so reading stops here and the call fails.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** The call fails on an answer beyond MAX_ANSWER_BYTES; retryable as the status says. */
export function answerTooLarge(provider: string, status: number): ProviderError {
  return new ProviderError(
    `${provider} answered HTTP ${status} with a body larger than 1 MB; the call counts as failed`,
    isRetryableStatus(status),
  );
}

class AnswerTooLargeError extends Error {}

/** The body as text, read only up to MAX_ANSWER_BYTES (a larger declared or streamed body throws). */
async function readCapped(response: Response): Promise<string> {
  if (Number(response.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw new AnswerTooLargeError();
  }
  if (!response.body) return '';
  // The platform types leave the chunk type open; a fetch body streams bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The connection pool of guarded calls: its sockets resolve through guardedLookup, so they reach only
 * addresses the SSRF guard checked when connecting (fetch would otherwise resolve the name again).
 * Guarded calls use the undici package's own fetch with it (pinned to the version Node 20 bundles as its
 * global fetch): Node's bundled fetch would take the Agent too, but it is another copy of undici that
 * could drift from the package's version, and it keeps the guard's error only as text when the error
 * comes from another realm (jest's), where the package's fetch keeps it as the cause.
 */
export const guardedDispatcher = new Agent({ connect: { lookup: guardedLookup } });

/** Replaces every secret value (and its base64 form, as in Basic auth) with [redacted]. */
export function redact(text: string, secrets: unknown[]): string {
  let result = text;
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < 4) continue;
    for (const form of [secret, Buffer.from(secret).toString('base64')]) result = result.split(form).join('[redacted]');
  }
  return result;
}

const SECRET_HEADER = /auth|token|key|secret|signature/i;

function secretsOf(call: ProviderCall): unknown[] {
  const values = Object.entries(call.headers ?? {})
    .filter(([name]) => SECRET_HEADER.test(name))
    .map(([, value]) => value);
  const parts = values.flatMap((value) => {
    const basic = /^Basic (.+)$/i.exec(value);
    if (basic) return Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    return value.split(/[\s=",]+/);
  });
  return [...(call.secrets ?? []), ...values, ...parts.filter((part) => part.length >= 8)];
}

/** A provider error text: `<provider> answered HTTP <status>: <provider's own reason>`. */
export function httpFailure(
  call: ProviderCall,
  answer: ProviderAnswer,
  reason?: string,
  retryable?: boolean,
): ProviderError {
  const detail =
    reason ?? errorReason(answer.data) ?? (answer.text && !answer.data ? answer.text.slice(0, 200) : undefined);
  const message = redact(
    `${call.provider} answered HTTP ${answer.status}${detail ? `: ${detail}` : ''}`,
    secretsOf(call),
  );
  const kind = answer.status === 401 || answer.status === 403 ? 'credentials' : 'provider';
  return new ProviderError(message, retryable ?? isRetryableStatus(answer.status), answer.text || undefined, kind);
}

export const isRetryableStatus = (status: number) => status === 429 || status === 408 || status >= 500;

/** The usual places APIs put a human-readable reason. */
function errorReason(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const body = data as Record<string, unknown>;
  const candidates = [
    body.message,
    body.Message,
    (body.error as Record<string, unknown> | undefined)?.message,
    body.error,
    body.error_description,
    Array.isArray(body.errors)
      ? ((body.errors[0] as Record<string, unknown> | undefined)?.message ?? body.errors[0])
      : undefined,
    body.reason,
  ];
  const found = candidates.find((value) => typeof value === 'string' && value.length > 0) as string | undefined;
  return found?.slice(0, 300);
}

/**
 * One HTTP call to a provider with the send timeout. Network errors and timeouts become retryable
 * ProviderErrors; the answer is returned whatever its status (see `providerSend` for the usual check).
 */
export async function providerRequest(call: ProviderCall, options: SendOptions): Promise<ProviderAnswer> {
  const url = call.guard ? await assertPublicTarget(call.url, options.allowPrivateTargets) : new URL(call.url);
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  let body: string | undefined = call.body;
  if (call.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(call.json);
  } else if (call.form) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = call.form.toString();
  }
  const secrets = secretsOf(call);
  let response: Response;
  try {
    const init = {
      method: call.method ?? 'POST',
      headers,
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs),
    } as const;
    response =
      call.guard && !options.allowPrivateTargets
        ? await undiciFetch(url, { ...init, dispatcher: guardedDispatcher })
        : await fetch(url, init);
  } catch (error) {
    const failure = error as Error & { cause?: { code?: string; message?: string } };
    // The guard refused the address the connection resolved (DNS rebinding): its own error, not retried.
    if (failure.cause instanceof ProviderError) throw failure.cause;
    const timedOut = failure.name === 'TimeoutError' || failure.name === 'AbortError';
    const reason = timedOut
      ? `timed out after ${options.timeoutMs} ms`
      : `request failed: ${failure.cause?.code ?? failure.cause?.message ?? failure.message}`;
    throw new ProviderError(redact(`${call.provider} ${reason}`, secrets), true);
  }
  let answered: string;
  try {
    answered = await readCapped(response);
  } catch (error) {
    if (error instanceof AnswerTooLargeError) throw answerTooLarge(call.provider, response.status);
    answered = '';
  }
  const full = redact(answered, secrets);
  let data: unknown;
  try {
    data = full ? JSON.parse(full) : undefined;
  } catch {
    data = undefined;
  }
  return { status: response.status, ok: response.ok, headers: response.headers, text: full.slice(0, MAX_RAW), data };
}

/** providerRequest, then a non-2xx answer becomes a ProviderError (429/5xx retryable, other 4xx not). */
export async function providerSend(call: ProviderCall, options: SendOptions): Promise<ProviderAnswer> {
  const answer = await providerRequest(call, options);
  if (!answer.ok) throw httpFailure(call, answer);
  return answer;
}
