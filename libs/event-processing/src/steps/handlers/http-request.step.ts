import { Injectable } from '@nestjs/common';
import { AppConfig } from '#common';
import { TemplateEngine, TemplateRenderError, type HttpRequestMethod } from '#application';
import {
  httpFailure,
  ProviderError,
  providerRequest,
  redact,
  type ProviderAnswer,
  type ProviderCall,
} from '#providers';
import { record, templateVariables, type StepContext } from '../step-context.js';
import { outcome, type StepOutcome } from '../step-outcome.js';
import { retryBackoffMs } from '../provider-sender.js';
import type { StepHandler } from './step-handler.js';

export const FAILED_REQUEST_RUN = 'Step skipped: an earlier http_request step failed';

/** The most of a response body kept on the job (serialized): later steps' templates read it. */
export const MAX_KEPT_BODY_CHARS = 32 * 1024;
const KEPT_HEADERS = ['content-type', 'content-length', 'etag', 'location', 'retry-after', 'x-request-id'];

interface HttpRequestMetadata {
  url?: string;
  method?: HttpRequestMethod;
  headers?: { key: string; value: string }[];
  body?: { key: string; value: string }[] | Record<string, unknown>;
  continueOnFailure?: boolean;
}

/** The rendered request, and how the detail shows it: method, scheme, host and path (no query, no user info). */
export interface PreparedRequest {
  call: ProviderCall;
  shown: string;
}

/** The request the rendered metadata describes, or why there is none. */
export function prepareRequest(rendered: HttpRequestMetadata): PreparedRequest | { error: string } {
  let url: URL;
  try {
    url = new URL(rendered.url ?? '');
  } catch {
    return { error: 'The rendered URL of the http_request step is not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: 'The rendered URL of the http_request step is not http or https' };
  const method = rendered.method ?? 'POST';
  const pairs = rendered.headers ?? [];
  const broken = pairs.find(({ value }) => /[\r\n\0]/.test(value));
  if (broken) return { error: `The rendered value of header ${broken.key} holds a line break` };
  const headers = Object.fromEntries(pairs.map(({ key, value }) => [key.toLowerCase(), value]));
  const body = Array.isArray(rendered.body)
    ? Object.fromEntries(rendered.body.map(({ key, value }) => [key, value]))
    : rendered.body;
  return {
    call: {
      provider: `${method} ${url.origin}${url.pathname}`,
      url: url.toString(),
      method,
      headers,
      json: method === 'GET' || body === undefined ? undefined : body,
      guard: true,
      // The query and user info may carry tokens; the path is shown.
      secrets: [url.search.slice(1), ...url.searchParams.values(), url.username, url.password],
    },
    shown: `${method} ${url.origin}${url.pathname}`,
  };
}

/** What is kept of an answer: its status, a few headers, and its JSON body (or text) when small enough. */
export function keptResponse(answer: ProviderAnswer): Record<string, unknown> {
  const headers = Object.fromEntries(
    KEPT_HEADERS.flatMap((name) => {
      const value = answer.headers.get(name);
      return value === null ? [] : [[name, value]];
    }),
  );
  const body = answer.data !== undefined ? answer.data : answer.text;
  const fits = JSON.stringify(body ?? null).length <= MAX_KEPT_BODY_CHARS;
  return {
    status: answer.status,
    ok: answer.ok,
    headers,
    body: fits ? body : null,
    ...(fits ? {} : { truncated: true }),
  };
}

/** A failure the step does not retry (any more): the job fails, and the run stops unless continueOnFailure. */
export function finalFailure(
  context: StepContext,
  error: string,
  extra: { continueOnFailure: boolean; response?: Record<string, unknown> },
): StepOutcome {
  const next = extra.continueOnFailure
    ? 'continueOnFailure is set: the following steps run'
    : 'the following steps are skipped';
  record(context, { status: 'Failed', source: 'Webhook', detail: `${error}; ${next}` });
  return outcome.failed(error, {
    ...(extra.response ? { result: { response: extra.response } } : {}),
    ...(extra.continueOnFailure ? {} : { endsRun: FAILED_REQUEST_RUN }),
  });
}

/**
 * http_request steps: one HTTP call with the rendered URL, headers and body, through the SSRF guard
 * the providers use (ALLOW_PRIVATE_WEBHOOK_TARGETS), PROVIDER_TIMEOUT_MS and the 1 MB answer cap.
 * A retryable failure (network, timeout, 408, 429, 5xx) is tried again like a provider call: the job
 * waits out the backoff in the queue, up to PROVIDER_MAX_ATTEMPTS attempts. The response is kept
 * on the job for the templates of the steps after it.
 */
@Injectable()
export class HttpRequestStep implements StepHandler {
  readonly type = 'http_request';
  readonly claims = true;

  constructor(
    private readonly templates: TemplateEngine,
    private readonly config: AppConfig,
  ) {}

  async start(context: StepContext): Promise<StepOutcome> {
    const { job } = context;
    const metadata = (job.step.metadata ?? {}) as HttpRequestMetadata;
    const continueOnFailure = metadata.continueOnFailure === true;
    let prepared: PreparedRequest | { error: string };
    try {
      const { url, headers, body } = metadata;
      const rendered = await this.templates.render({ url, headers, body }, templateVariables(context));
      prepared = prepareRequest({ ...rendered, method: metadata.method });
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      prepared = { error: error.message };
    }
    if ('error' in prepared) return finalFailure(context, prepared.error, { continueOnFailure });
    const attempt = job.providerRetry?.attempt ?? 1;
    const maxAttempts = this.config.providerMaxAttempts;
    const tries = `attempt ${attempt} of ${maxAttempts}`;
    let answer: ProviderAnswer | undefined;
    let failure: ProviderError;
    try {
      answer = await providerRequest(prepared.call, {
        timeoutMs: this.config.providerTimeoutMs,
        allowPrivateTargets: this.config.allowPrivateWebhookTargets,
      });
      if (answer.ok) {
        record(context, {
          status: 'Success',
          source: 'Webhook',
          detail: `${prepared.shown} answered HTTP ${answer.status} (${tries})`,
          isRetry: attempt > 1,
        });
        return outcome.completed({ result: { response: keptResponse(answer) } });
      }
      failure = httpFailure(prepared.call, answer);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      failure = error;
    }
    // The guard's and the network's texts may name the URL's parts: the same redaction as the answer.
    const reason = redact(failure.message, prepared.call.secrets ?? []);
    if (failure.retryable && attempt < maxAttempts) {
      const delayMs = retryBackoffMs(attempt, this.config.providerBackoffMs);
      record(context, {
        status: 'Failed',
        source: 'Webhook',
        detail: `${reason} (${tries}); retrying in ${delayMs} ms`,
        raw: answer?.text || null,
        isRetry: attempt > 1,
      });
      return outcome.retry(context.now, '', { integrationId: '', attempt: attempt + 1, delayMs });
    }
    const response = answer ? keptResponse(answer) : undefined;
    return finalFailure(context, `${reason} (${tries})`, { continueOnFailure, response });
  }

  resume(context: StepContext): Promise<StepOutcome> {
    return this.start(context);
  }
}
