import { CHANNELS, type Channel } from '#common';
import type { StoredStep, WorkflowRow } from '#dal';
import { slugify } from './slugify.js';
import { controlsFromStoredStep } from './stored-step-controls.js';
import type { WorkflowOrigin } from './workflow-input.js';

export interface PreferenceLevel {
  all: { enabled: boolean; readOnly: boolean };
  channels: Record<Channel, { enabled: boolean }>;
}

/** Novu's v2 preferences as written: the workflow author's default and the level subscribers start from. */
export interface StoredPreferences {
  user?: PreferenceLevel | null;
  workflow?: PreferenceLevel | null;
}

export interface StepV2Response {
  _id: string;
  stepId: string;
  name: string;
  slug: string;
  type: string;
  origin: WorkflowOrigin;
  workflowId: string;
  workflowDatabaseId: string;
  controls: { values: Record<string, unknown> };
  controlValues: Record<string, unknown>;
  variables: Record<string, unknown>;
}

export interface WorkflowV2Response {
  _id: string;
  workflowId: string;
  slug: string;
  name: string;
  description: string;
  tags: string[];
  active: boolean;
  validatePayload: boolean;
  payloadSchema: Record<string, unknown> | null;
  isTranslationEnabled: boolean;
  origin: WorkflowOrigin;
  status: 'ACTIVE' | 'INACTIVE';
  severity: 'none';
  preferences: { user: PreferenceLevel | null; default: PreferenceLevel };
  steps: StepV2Response[];
  createdAt: string;
  updatedAt: string;
  lastTriggeredAt: null;
}

export interface WorkflowV2ListItem {
  _id: string;
  workflowId: string;
  slug: string;
  name: string;
  tags: string[];
  origin: WorkflowOrigin;
  status: 'ACTIVE' | 'INACTIVE';
  stepTypeOverviews: string[];
  isTranslationEnabled: boolean;
  steps: { slug: string; type: string }[];
  createdAt: string;
  updatedAt: string;
  lastTriggeredAt: null;
}

const ORIGINS = new Set<string>(['novu-cloud', 'novu-cloud-v1', 'external']);
const originOf = (row: WorkflowRow): WorkflowOrigin =>
  (ORIGINS.has(row.origin) ? row.origin : 'novu-cloud-v1') as WorkflowOrigin;

/** The v2 step identifier: as written through v2, else the slug of the step's name, else its id. */
export function stepIdOf(step: StoredStep): string {
  return step.stepId ?? (slugify(step.name ?? '') || step._id);
}

/** Controls the SDK requires a value for, when the stored controls leave them out. */
const REQUIRED_CONTROL_DEFAULTS: Record<string, Record<string, unknown>> = {
  email: { subject: '', body: '', editorType: 'block' },
  http_request: { url: '', method: 'POST' },
};

/** What a step template can use, as a JSON Schema: the dashboard's variable picker reads it. */
const STEP_VARIABLES = {
  type: 'object',
  properties: {
    subscriber: { type: 'object', additionalProperties: true },
    payload: { type: 'object', additionalProperties: true },
    steps: { type: 'object', additionalProperties: true },
  },
};

function stepSlug(name: string, id: string): string {
  return `${slugify(name) || 'step'}_st_${id}`;
}

export function toStepV2Response(row: WorkflowRow, step: StoredStep): StepV2Response {
  const type = step.template.type;
  const controlValues = controlsFromStoredStep(step);
  const name = step.name ?? type;
  return {
    _id: step._id,
    stepId: stepIdOf(step),
    name,
    slug: stepSlug(name, step._id),
    type,
    origin: originOf(row),
    workflowId: row.identifier,
    workflowDatabaseId: row.id,
    controls: { values: { ...(REQUIRED_CONTROL_DEFAULTS[type] ?? {}), ...controlValues } },
    controlValues,
    variables: STEP_VARIABLES,
  };
}

function level(enabled: Partial<Record<string, boolean>>, allEnabled: boolean, readOnly: boolean): PreferenceLevel {
  return {
    all: { enabled: allEnabled, readOnly },
    channels: Object.fromEntries(
      CHANNELS.map((channel) => [channel, { enabled: enabled[channel] ?? allEnabled }]),
    ) as PreferenceLevel['channels'],
  };
}

/** A preference level as written (any channel may be left out) with every channel filled in. */
export function normalizedLevel(written: unknown): PreferenceLevel | null {
  if (typeof written !== 'object' || written === null) return null;
  const { all, channels } = written as { all?: { enabled?: boolean; readOnly?: boolean }; channels?: object };
  const allEnabled = all?.enabled ?? true;
  const byChannel = Object.fromEntries(
    Object.entries(channels ?? {}).map(([channel, value]) => [channel, (value as { enabled?: boolean })?.enabled]),
  ) as Partial<Record<string, boolean>>;
  return level(byChannel, allEnabled, all?.readOnly ?? false);
}

/** The v2 preferences of any workflow: as written through v2, else derived from the v1 columns. */
export function workflowPreferences(row: WorkflowRow): { user: PreferenceLevel | null; default: PreferenceLevel } {
  const stored = (row.preferences ?? {}) as StoredPreferences;
  const written = normalizedLevel(stored.workflow);
  return {
    user: normalizedLevel(stored.user),
    default: written ?? level(row.preferenceSettings, true, row.critical),
  };
}

/**
 * The v1 columns the engine reads (critical, preferenceSettings) for v2 preferences: the level
 * subscribers start from (`user`, else `workflow`) decides; `readOnly` makes the workflow critical.
 */
export function preferenceColumns(preferences: StoredPreferences): {
  critical: boolean;
  preferenceSettings: Record<string, boolean>;
} {
  const effective = normalizedLevel(preferences.user) ?? normalizedLevel(preferences.workflow);
  if (!effective) return { critical: false, preferenceSettings: {} };
  return {
    critical: effective.all.readOnly,
    preferenceSettings: Object.fromEntries(CHANNELS.map((channel) => [channel, effective.channels[channel].enabled])),
  };
}

const statusOf = (row: WorkflowRow) => (row.active && !row.draft ? 'ACTIVE' : 'INACTIVE');

export function toWorkflowV2Response(row: WorkflowRow): WorkflowV2Response {
  return {
    _id: row.id,
    workflowId: row.identifier,
    slug: `${slugify(row.name) || 'workflow'}_wf_${row.id}`,
    name: row.name,
    description: row.description,
    tags: row.tags,
    active: row.active && !row.draft,
    validatePayload: row.validatePayload,
    payloadSchema: row.payloadSchema ?? null,
    isTranslationEnabled: row.isTranslationEnabled,
    origin: originOf(row),
    status: statusOf(row),
    severity: 'none',
    preferences: workflowPreferences(row),
    steps: row.steps.map((step) => toStepV2Response(row, step)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastTriggeredAt: null,
  };
}

export function toWorkflowV2ListItem(row: WorkflowRow): WorkflowV2ListItem {
  const full = toWorkflowV2Response(row);
  return {
    _id: full._id,
    workflowId: full.workflowId,
    slug: full.slug,
    name: full.name,
    tags: full.tags,
    origin: full.origin,
    status: full.status,
    stepTypeOverviews: full.steps.map((step) => step.type),
    isTranslationEnabled: full.isTranslationEnabled,
    steps: full.steps.map((step) => ({ slug: step.slug, type: step.type })),
    createdAt: full.createdAt,
    updatedAt: full.updatedAt,
    lastTriggeredAt: null,
  };
}
