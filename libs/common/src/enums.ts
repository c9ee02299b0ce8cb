export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

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

export const CHAT_PROVIDERS = [
  'slack',
  'discord',
  'msteams',
  'mattermost',
  'ryver',
  'zulip',
  'grafana-on-call',
  'getstream',
  'rocket-chat',
  'whatsapp-business',
  'chat-webhook',
  'service-slack',
] as const;
export const PUSH_PROVIDERS = [
  'fcm',
  'apns',
  'expo',
  'one-signal',
  'pushpad',
  'push-webhook',
  'pusher-beams',
  'appio',
] as const;
/** The spec's provider identifiers for subscriber channel settings. */
export const SUBSCRIBER_PROVIDER_IDS = [...CHAT_PROVIDERS, ...PUSH_PROVIDERS] as const;
export type SubscriberProviderId = (typeof SUBSCRIBER_PROVIDER_IDS)[number];

export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

export const FILTER_OPERATORS = [
  'LARGER',
  'SMALLER',
  'LARGER_EQUAL',
  'SMALLER_EQUAL',
  'EQUAL',
  'NOT_EQUAL',
  'ALL_IN',
  'ANY_IN',
  'NOT_IN',
  'BETWEEN',
  'NOT_BETWEEN',
  'LIKE',
  'NOT_LIKE',
  'IN',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
export const FILTER_TYPES = ['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP'] as const;
export const FILTER_ON = ['subscriber', 'payload'] as const;

export const JOB_STATUSES = [
  'pending',
  'queued',
  'running',
  'completed',
  'failed',
  'canceled',
  'merged',
  'skipped',
  'delayed',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_JOB_STATUSES: JobStatus[] = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

export const EXECUTION_STATUSES = ['Success', 'Warning', 'Failed', 'Pending', 'Queued'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const EXECUTION_SOURCES = ['Internal', 'Credentials', 'Payload', 'Webhook'] as const;
export type ExecutionSource = (typeof EXECUTION_SOURCES)[number];

export const MESSAGE_STATUSES = ['sent', 'error', 'warning'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const TRIGGER_EVENT_STATUSES = ['received', 'processing', 'done', 'failed', 'canceled'] as const;
export type TriggerEventStatus = (typeof TRIGGER_EVENT_STATUSES)[number];
