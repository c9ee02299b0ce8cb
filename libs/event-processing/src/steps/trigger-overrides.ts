import { isEmailAddress } from '#common';
import type { JobRow } from '#dal';
import type { Passthrough, ProviderMessage, ProviderOverrides } from '#providers';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const objectAt = (value: unknown, key: string): Record<string, unknown> =>
  isObject(value) && isObject(value[key]) ? value[key] : {};

/**
 * Override fields the service itself applies to the message of a channel (the rest of a provider
 * override goes into the provider's request). `integrationIdentifier` picks the integration.
 */
const MESSAGE_FIELDS: Record<string, readonly string[]> = {
  email: ['to', 'cc', 'bcc', 'replyTo', 'from', 'senderName', 'integrationIdentifier'],
  sms: ['to', 'from', 'content', 'integrationIdentifier'],
  chat: ['content', 'integrationIdentifier'],
  push: ['title', 'content', 'integrationIdentifier'],
};

/** Message fields after every level is merged, for one provider. */
interface MessageFields {
  to?: unknown;
  cc?: unknown;
  bcc?: unknown;
  replyTo?: unknown;
  from?: unknown;
  senderName?: unknown;
  title?: unknown;
  content?: unknown;
}

export interface ResolvedOverrides {
  message: MessageFields;
  provider?: ProviderOverrides;
}

const pick = (source: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(source).filter(([key]) => keys.includes(key)));
const omit = (source: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(source).filter(([key]) => !keys.includes(key)));

/**
 * A trigger's overrides as one step sees them, in Novu's shapes: per channel (`overrides.email`),
 * per provider (`overrides.providers.<providerId>`, or the older top-level `overrides.<providerId>`)
 * and per step (`overrides.steps.<step id or name>`, its own fields and its `providers.<providerId>`).
 * Levels merge step over provider over channel.
 */
export class StepOverrides {
  private readonly channelLevel: Record<string, unknown>;
  private readonly stepLevel: Record<string, unknown>;

  constructor(
    private readonly overrides: Record<string, unknown>,
    private readonly job: Pick<JobRow, 'type' | 'step'>,
  ) {
    this.channelLevel = objectAt(overrides, job.type);
    const steps = objectAt(overrides, 'steps');
    const key = [job.step._id, job.step.uuid, job.step.name].find((name) => name && isObject(steps[name]));
    this.stepLevel = key ? (steps[key] as Record<string, unknown>) : {};
  }

  private get messageKeys(): readonly string[] {
    return MESSAGE_FIELDS[this.job.type] ?? [];
  }

  /** The integration the trigger asks for by identifier (step over channel), if any. */
  get integrationIdentifier(): string | undefined {
    const value = this.stepLevel.integrationIdentifier ?? this.channelLevel.integrationIdentifier;
    return typeof value === 'string' ? value : undefined;
  }

  /**
   * The recipient the trigger names for the channel (step over channel; the first of an email list):
   * the address used when the subscriber has none of its own, as in Novu.
   */
  get recipient(): string | undefined {
    const first = list(this.stepLevel.to ?? this.channelLevel.to)[0];
    return typeof first === 'string' && first ? first : undefined;
  }

  /** Where the integration identifier came from, for details. */
  get integrationIdentifierPath(): string {
    return this.stepLevel.integrationIdentifier !== undefined
      ? 'overrides.steps'
      : `overrides.${this.job.type}.integrationIdentifier`;
  }

  /** What a send through `providerId` uses: its message fields and its provider request overrides. */
  forProvider(providerId: string): ResolvedOverrides {
    const keys = this.messageKeys;
    const providerLevel = {
      ...objectAt(this.overrides, providerId),
      ...objectAt(this.overrides.providers, providerId),
    };
    const stepProvider = objectAt(this.stepLevel.providers, providerId);
    const stepOwn = omit(this.stepLevel, ['providers']);
    const message = {
      ...pick(this.channelLevel, keys),
      ...pick(providerLevel, keys),
      ...pick(stepOwn, keys),
      ...pick(stepProvider, keys),
    } as MessageFields;
    const requestLevels = [providerLevel, stepProvider].map((level) => omit(level, keys));
    const fields = Object.assign({}, ...requestLevels.map((level) => omit(level, ['_passthrough']))) as Record<
      string,
      unknown
    >;
    const passthroughs = requestLevels.map((level) => level._passthrough).filter(isObject);
    const passthrough = passthroughs.length ? mergePassthrough(passthroughs) : undefined;
    const provider = Object.keys(fields).length || passthrough ? { fields, passthrough } : undefined;
    return { message, provider };
  }
}

/** Later passthroughs win part by part (body, headers, query). */
function mergePassthrough(levels: Record<string, unknown>[]): Passthrough {
  const merged: Passthrough = {};
  for (const level of levels) {
    if (isObject(level.body)) merged.body = { ...merged.body, ...level.body };
    if (isObject(level.headers)) merged.headers = { ...merged.headers, ...(level.headers as Record<string, string>) };
    if (isObject(level.query)) merged.query = { ...merged.query, ...(level.query as Record<string, string>) };
  }
  return merged;
}

const list = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A message as the overrides shape it, with the sender fields that replace the integration's. */
export type OverriddenSend = { message: ProviderMessage; sender: Record<string, string> } | { refusal: string };

/**
 * Applies a provider's resolved overrides to the message: email `to` adds recipients (the
 * subscriber's address stays first), cc, bcc and replyTo; sms `to` replaces the number; chat and push
 * `content` (and push `title`) replace the rendered text; `from` and `senderName` replace the
 * integration's. Addresses are checked again here: an override stored another way must reach no
 * mailbox the API would have refused.
 */
export function overriddenSend(message: ProviderMessage, resolved: ResolvedOverrides | undefined): OverriddenSend {
  if (!resolved) return { message, sender: {} };
  const fields = resolved.message;
  const sender: Record<string, string> = {};
  const from = text(fields.from);
  const senderName = text(fields.senderName);
  if (from) sender.from = from;
  if (senderName) sender.senderName = senderName;
  const withProvider = { ...message, overrides: resolved.provider };
  if (withProvider.channel === 'email') {
    const addresses = [...list(fields.to), ...list(fields.cc), ...list(fields.bcc), ...list(fields.replyTo)];
    if (from) addresses.push(from);
    if (addresses.some((address) => !isEmailAddress(address)))
      return {
        refusal: 'An email override is not one valid address (a list, a line break or a display name): not sent',
      };
    const alsoTo = [...new Set(list(fields.to) as string[])].filter((address) => address !== withProvider.to);
    return {
      message: {
        ...withProvider,
        ...(alsoTo.length ? { alsoTo } : {}),
        ...(fields.cc !== undefined ? { cc: list(fields.cc) as string[] } : {}),
        ...(fields.bcc !== undefined ? { bcc: list(fields.bcc) as string[] } : {}),
        ...(text(fields.replyTo) ? { replyTo: text(fields.replyTo) } : {}),
      },
      sender,
    };
  }
  if (withProvider.channel === 'sms') {
    return {
      message: {
        ...withProvider,
        to: text(fields.to) ?? withProvider.to,
        content: text(fields.content) ?? withProvider.content,
      },
      sender,
    };
  }
  if (withProvider.channel === 'push') {
    const title = text(fields.title) ?? withProvider.title;
    return { message: { ...withProvider, title, content: text(fields.content) ?? withProvider.content }, sender };
  }
  return { message: { ...withProvider, content: text(fields.content) ?? withProvider.content }, sender };
}
