import { CHANNELS, type Channel } from '#common';
import type { NotificationGroupRow, StoredStep, WorkflowRow } from '#dal';
import { templateVariables } from './trigger-variables.js';

export interface NotificationTriggerResponse {
  type: 'event';
  identifier: string;
  variables: { name: string }[];
  subscriberVariables: { name: string }[];
}

export interface NotificationGroupResponse {
  _id: string;
  name: string;
  _environmentId: string;
  _organizationId: string;
}

/** The spec's Workflow. */
export interface WorkflowResponse {
  _id: string;
  name: string;
  description: string;
  active: boolean;
  draft: boolean;
  critical: boolean;
  preferenceSettings: Record<Channel, boolean>;
  tags: string[];
  steps: StoredStep[];
  _organizationId: string;
  _creatorId: string | null;
  _environmentId: string;
  _notificationGroupId: string;
  notificationGroup?: NotificationGroupResponse;
  triggers: NotificationTriggerResponse[];
  deleted: boolean;
  deletedAt: string | null;
  deletedBy: string | null;
  data: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

/** Channels a workflow leaves unset default to on. */
export function workflowPreferenceSettings(row: Pick<WorkflowRow, 'preferenceSettings'>): Record<Channel, boolean> {
  return Object.fromEntries(CHANNELS.map((channel) => [channel, row.preferenceSettings[channel] ?? true])) as Record<
    Channel,
    boolean
  >;
}

export function toWorkflowResponse(row: WorkflowRow, group?: NotificationGroupRow): WorkflowResponse {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    active: row.active,
    draft: row.draft,
    critical: row.critical,
    preferenceSettings: workflowPreferenceSettings(row),
    tags: row.tags,
    steps: row.steps,
    _organizationId: row.organizationId,
    _creatorId: row.creatorId,
    _environmentId: row.environmentId,
    _notificationGroupId: row.notificationGroupId,
    ...(group
      ? {
          notificationGroup: {
            _id: group.id,
            name: group.name,
            _environmentId: group.environmentId,
            _organizationId: group.organizationId,
          },
        }
      : {}),
    triggers: [
      {
        type: 'event',
        identifier: row.identifier,
        variables: templateVariables(row.steps, 'payload'),
        subscriberVariables: templateVariables(row.steps, 'subscriber'),
      },
    ],
    deleted: row.deleted,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    deletedBy: row.deletedBy,
    data: row.data ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
