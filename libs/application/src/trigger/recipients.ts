/** A trigger's `to`, actor and tenant as the client sent them: read by the trigger route and by the worker's fan-out. */

/** A recipient of a trigger's `to` (or the actor), as sent by the client, after validation. */
export interface SubscriberRecipient {
  subscriberId: string;
  /** The object as sent (undefined fields untouched on upsert); absent for a bare subscriberId. */
  fields?: Record<string, unknown>;
}

export interface TopicRecipient {
  topicKey: string;
  exclude: string[];
}

export interface ParsedRecipients {
  subscribers: SubscriberRecipient[];
  topics: TopicRecipient[];
  /** One message per dropped recipient. */
  errors: string[];
}

const SUBSCRIBER_ID = /^[a-zA-Z0-9_:.@+-]{1,255}$/;
const SUBSCRIBER_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function isValidSubscriberId(value: unknown): value is string {
  return typeof value === 'string' && SUBSCRIBER_ID.test(value);
}

function subscriberObjectError(value: Record<string, unknown>): string | undefined {
  if (!isValidSubscriberId(value.subscriberId))
    return `subscriberId ${JSON.stringify(value.subscriberId ?? null)} is not a valid subscriber id`;
  for (const field of SUBSCRIBER_FIELDS) {
    const fieldValue = value[field];
    if (fieldValue !== undefined && fieldValue !== null && typeof fieldValue !== 'string')
      return `${field} of subscriber ${value.subscriberId} must be a string`;
  }
  if (value.data !== undefined && value.data !== null && !isPlainObject(value.data))
    return `data of subscriber ${value.subscriberId} must be an object`;
  if (value.channels !== undefined && !Array.isArray(value.channels))
    return `channels of subscriber ${value.subscriberId} must be an array`;
  return undefined;
}

/** Entries one trigger's `to` may hold; a larger audience belongs in a topic. */
export const MAX_RECIPIENTS = 1_000;

/**
 * A topic listed again reaches its subscribers once: a subscriber is left out only when every copy
 * excludes it (each copy alone would have reached the others).
 */
function mergeTopic(topics: Map<string, TopicRecipient>, topic: TopicRecipient): void {
  const earlier = topics.get(topic.topicKey);
  if (!earlier) topics.set(topic.topicKey, topic);
  else earlier.exclude = earlier.exclude.filter((id) => topic.exclude.includes(id));
}

/**
 * Splits `to` into subscribers and topics, dropping invalid entries with a message each. A subscriber
 * listed twice is kept once (the last definition wins, as in Novu), and so is a topic (see mergeTopic);
 * topics are recognised only by `type: 'Topic'`.
 */
export function parseRecipients(to: unknown): ParsedRecipients {
  const items = Array.isArray(to) ? to : [to];
  const bySubscriberId = new Map<string, SubscriberRecipient>();
  const topics = new Map<string, TopicRecipient>();
  const errors: string[] = [];
  items.forEach((item, index) => {
    if (typeof item === 'string') {
      if (isValidSubscriberId(item)) {
        if (!bySubscriberId.has(item)) bySubscriberId.set(item, { subscriberId: item });
      } else errors.push(`to[${index}]: ${JSON.stringify(item)} is not a valid subscriber id`);
      return;
    }
    if (!isPlainObject(item)) {
      errors.push(`to[${index}]: must be a subscriberId, a subscriber object or a topic object`);
      return;
    }
    if (item.type === 'Topic') {
      const exclude = item.exclude === undefined ? [] : item.exclude;
      if (typeof item.topicKey !== 'string' || item.topicKey.length === 0)
        errors.push(`to[${index}]: topicKey is required`);
      else if (!Array.isArray(exclude) || !exclude.every((id) => typeof id === 'string'))
        errors.push(`to[${index}]: exclude must be an array of subscriber ids`);
      else mergeTopic(topics, { topicKey: item.topicKey, exclude: [...new Set(exclude)] });
      return;
    }
    const error = subscriberObjectError(item);
    if (error) errors.push(`to[${index}]: ${error}`);
    else bySubscriberId.set(item.subscriberId as string, { subscriberId: item.subscriberId as string, fields: item });
  });
  return { subscribers: [...bySubscriberId.values()], topics: [...topics.values()], errors };
}

/** The actor as a recipient, or undefined when none was given. Validated by the DTO already. */
export function parseActor(actor: unknown): SubscriberRecipient | undefined {
  if (typeof actor === 'string') return { subscriberId: actor };
  if (isPlainObject(actor) && typeof actor.subscriberId === 'string')
    return { subscriberId: actor.subscriberId, fields: actor };
  return undefined;
}

export function tenantIdentifierOf(tenant: unknown): string | undefined {
  if (typeof tenant === 'string') return tenant;
  if (isPlainObject(tenant) && typeof tenant.identifier === 'string') return tenant.identifier;
  return undefined;
}

/**
 * Marks a stored broadcast request (POST /v1/events/trigger/broadcast): it names no recipients, the
 * fan-out reads every live subscriber of the environment when it runs.
 */
export const BROADCAST_MARK = { broadcast: true } as const;

export function isBroadcast(request: Record<string, unknown>): boolean {
  return request.broadcast === BROADCAST_MARK.broadcast;
}
