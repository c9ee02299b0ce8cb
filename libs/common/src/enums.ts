/** What every layer may know of a step type, beside its name. */
export interface StepRegistration {
  /** A delivery channel: the step writes messages of its type, and subscribers' channel preferences apply to it. */
  readonly channel: boolean;
  /** Held until the subscriber's delivery schedule is open (unless the workflow is critical). */
  readonly followsSchedule: boolean;
  /** Sends through a provider: the environment's active integrations of its channel. */
  readonly usesIntegrations: boolean;
  /**
   * `none`: whatever a workflow sends is dropped. `required`: validated when the workflow is saved
   * and stored. `templates`: required, and its strings are Liquid templates, checked when saved.
   */
  readonly metadata: 'none' | 'required' | 'templates';
}

/**
 * Every step type, by the name workflows give it in `template.type`. Adding a step type starts with
 * its entry here: StepType is this table's keys, and the two tables that complete a step type are
 * typed by it, so tsc names what a new entry still lacks:
 * - `METADATA_FORMS` (step-metadata.definition.ts): the metadata forms a workflow is validated
 *   against when saved, for a step type with metadata;
 * - `STEP_HANDLER_CLASSES` (libs/event-processing/src/steps/handlers/step-handlers.ts): the handler
 *   that runs its jobs.
 * They are three tables because each lives with what it needs: this one is read by every lib and
 * app (channels, preferences, the API's enums, the engine's checks), the forms are class-validator
 * and Swagger classes of the workflow definitions, and the handlers need the queue, the providers
 * and the database of libs/event-processing, which neither libs/application nor the api may import.
 */
export const STEP_REGISTRY = {
  in_app: { channel: true, followsSchedule: false, usesIntegrations: false, metadata: 'none' },
  email: { channel: true, followsSchedule: true, usesIntegrations: true, metadata: 'none' },
  sms: { channel: true, followsSchedule: true, usesIntegrations: true, metadata: 'none' },
  chat: { channel: true, followsSchedule: true, usesIntegrations: true, metadata: 'none' },
  push: { channel: true, followsSchedule: true, usesIntegrations: true, metadata: 'none' },
  digest: { channel: false, followsSchedule: false, usesIntegrations: false, metadata: 'required' },
  delay: { channel: false, followsSchedule: false, usesIntegrations: false, metadata: 'required' },
  throttle: { channel: false, followsSchedule: false, usesIntegrations: false, metadata: 'required' },
  http_request: { channel: false, followsSchedule: false, usesIntegrations: false, metadata: 'templates' },
} as const satisfies Record<string, StepRegistration>;

export type StepType = keyof typeof STEP_REGISTRY;
export const STEP_TYPES = Object.keys(STEP_REGISTRY) as StepType[];

/** The step types whose registration matches `Shape`. */
type StepTypesWhere<Shape> = {
  [Type in StepType]: (typeof STEP_REGISTRY)[Type] extends Shape ? Type : never;
}[StepType];

export type Channel = StepTypesWhere<{ channel: true }>;
/** In the table's order, which is the order the API lists channels in. */
export const CHANNELS = STEP_TYPES.filter((type): type is Channel => STEP_REGISTRY[type].channel);

export type MetadataStepType = StepTypesWhere<{ metadata: 'required' | 'templates' }>;
export const METADATA_STEP_TYPES = STEP_TYPES.filter(
  (type): type is MetadataStepType => STEP_REGISTRY[type].metadata !== 'none',
);

/** The registration of a name read from a request or a row; undefined for a name no step type has. */
export function stepRegistration(type: unknown): StepRegistration | undefined {
  return typeof type === 'string' && Object.hasOwn(STEP_REGISTRY, type) ? STEP_REGISTRY[type as StepType] : undefined;
}

export const isChannel = (type: unknown): type is Channel => stepRegistration(type)?.channel === true;

/** A step of this type keeps its metadata (validated and stored); other steps' metadata is dropped. */
export const hasMetadata = (type: unknown): boolean => (stepRegistration(type)?.metadata ?? 'none') !== 'none';

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
/**
 * A notification's status as the activity feed filters it, from its jobs: `failed` when one failed,
 * `pending` while one is not terminal (and none failed), `completed` when all are terminal and none
 * failed. The dashboard's Activity page derives the same words from a notification's jobs.
 */
export const NOTIFICATION_STATUSES = ['failed', 'pending', 'completed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const EXECUTION_STATUSES = ['Success', 'Warning', 'Failed', 'Pending', 'Queued'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const EXECUTION_SOURCES = ['Internal', 'Credentials', 'Payload', 'Webhook'] as const;
export type ExecutionSource = (typeof EXECUTION_SOURCES)[number];

export const MESSAGE_STATUSES = ['sent', 'error', 'warning'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const TRIGGER_EVENT_STATUSES = ['received', 'processing', 'done', 'failed', 'canceled'] as const;
export type TriggerEventStatus = (typeof TRIGGER_EVENT_STATUSES)[number];
