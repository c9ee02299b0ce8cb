import { Injectable } from '@nestjs/common';
import { Clock, DomainError, type FieldErrors } from '#common';
import {
  lockLiveSubscribers,
  PreferenceRepository,
  type DbExecutor,
  WorkflowRepository,
  type PreferenceScope,
  type PreferenceRow,
  type WorkflowRow,
} from '#dal';
import { normalizeSchedule, validateSchedule, type Schedule } from '../schedule/index.js';
import { webhookEvent } from '../webhooks/webhook-event.js';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { resolveWorkflowPreferences } from './preference-resolver.js';

/** A workflow's resolved preference in Novu's per-workflow shape (the bulk answer, the inbox list). */
export interface WorkflowPreferenceResult {
  level: 'template';
  workflow: {
    id: string;
    identifier: string;
    name: string;
    critical: boolean;
    tags: string[];
    data?: Record<string, unknown>;
    severity: 'none';
  };
  enabled: boolean;
  channels: Record<string, boolean>;
}

export function toWorkflowPreferenceResult(workflow: WorkflowRow, rows: PreferenceRow[]): WorkflowPreferenceResult {
  const { enabled, channels } = resolveWorkflowPreferences(workflow, {
    global: rows.find((row) => row.workflowId === null)?.channels,
    workflow: rows.find((row) => row.workflowId === workflow.id)?.channels,
  });
  return {
    level: 'template',
    workflow: {
      id: workflow.id,
      identifier: workflow.identifier,
      name: workflow.name,
      critical: workflow.critical,
      tags: workflow.tags,
      ...(workflow.data ? { data: workflow.data } : {}),
      severity: 'none',
    },
    enabled,
    channels,
  };
}

/** undefined: leave the stored schedule; null: remove it; otherwise the validated schedule (a 422 naming the field). */
export function parseSchedule(value: unknown, path = 'schedule'): Schedule | null | undefined {
  if (value === undefined || value === null) return value;
  const issues = validateSchedule(value, path);
  if (issues.length > 0) {
    const fieldErrors: FieldErrors = {};
    for (const issue of issues) {
      const entry = (fieldErrors[issue.path] ??= { messages: [], value: issue.value });
      entry.messages.push(issue.message);
    }
    throw new DomainError('VALIDATION_FAILED', issues[0].message, fieldErrors);
  }
  return normalizeSchedule(value as Schedule);
}

/** Only the boolean channel choices of a body (anything else is not a choice). */
export function channelChoices(channels: object | undefined): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(channels ?? {}).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'),
  );
}

/**
 * A subscriber's preference changes, whoever asks (the API-key routes, the browser's inbox). A global
 * change leaves the per-workflow choices alone: they are more specific and keep winning. A critical
 * workflow has no preferences to change.
 */
@Injectable()
export class PreferenceWriter {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly preferences: PreferenceRepository,
    private readonly outbox: WebhookOutbox,
    private readonly clock: Clock,
  ) {}

  async updateGlobal(
    scope: PreferenceScope,
    subscriberRowId: string,
    channels: Record<string, boolean>,
    schedule: Schedule | null | undefined,
  ): Promise<void> {
    if (Object.keys(channels).length > 0 || schedule !== undefined)
      await this.withEvents(scope.environmentId, subscriberRowId, [
        (tx) => this.preferences.upsert(scope, subscriberRowId, null, channels, schedule, tx),
      ]);
  }

  /** Every workflow is resolved before anything is written, so an unknown or critical one changes nothing. */
  async updateWorkflows(
    scope: PreferenceScope,
    subscriberRowId: string,
    items: { workflowId: string; channels: Record<string, boolean> }[],
  ): Promise<WorkflowPreferenceResult[]> {
    const resolved = await Promise.all(items.map((item) => this.findWorkflow(scope.environmentId, item.workflowId)));
    // In order: a workflow named twice ends with its last entry's channels.
    await this.withEvents(
      scope.environmentId,
      subscriberRowId,
      items.flatMap((item, index) =>
        Object.keys(item.channels).length > 0
          ? [
              (tx: DbExecutor) =>
                this.preferences.upsert(scope, subscriberRowId, resolved[index].id, item.channels, undefined, tx),
            ]
          : [],
      ),
    );
    const rows = await this.preferences.findForSubscriber(scope.environmentId, subscriberRowId);
    const unique = [...new Map(resolved.map((workflow) => [workflow.id, workflow])).values()];
    return unique.map((workflow) => toWorkflowPreferenceResult(workflow, rows));
  }

  /**
   * The upserts in order, committed with one preference.updated event per preference row written; none
   * when the subscriber was deleted meanwhile (its erasure would not have seen them).
   */
  private async withEvents(
    environmentId: string,
    subscriberRowId: string,
    upserts: ((tx: DbExecutor) => Promise<PreferenceRow>)[],
  ): Promise<void> {
    if (upserts.length === 0) return;
    const now = this.clock.now();
    await this.outbox.commitWithEvents(
      environmentId,
      now,
      async (tx) => {
        if (!(await lockLiveSubscribers(tx, environmentId, [subscriberRowId])).has(subscriberRowId))
          throw new DomainError('SUBSCRIBER_NOT_FOUND', 'Subscriber not found: it was deleted');
        const rows: PreferenceRow[] = [];
        for (const upsert of upserts) rows.push(await upsert(tx));
        return rows;
      },
      (rows) => rows.map((row) => webhookEvent('preference.updated', preferenceData(row), now, row.subscriberId)),
    );
  }

  private async findWorkflow(environmentId: string, key: string): Promise<WorkflowRow> {
    const workflow = await this.workflows.findByIdOrIdentifier(environmentId, key);
    if (!workflow) throw new DomainError('WORKFLOW_NOT_FOUND', `Workflow ${key} cannot be found`);
    if (workflow.critical)
      throw new DomainError('CRITICAL_WORKFLOW', `Critical workflow with id: ${key} can not be updated`);
    return workflow;
  }
}

/** A stored preference as preference.updated carries it: whose, which workflow (null: global), the choices. */
function preferenceData(row: PreferenceRow): Record<string, unknown> {
  return {
    _id: row.id,
    _subscriberId: row.subscriberId,
    _templateId: row.workflowId,
    level: row.workflowId ? 'template' : 'global',
    channels: row.channels,
    schedule: row.schedule,
    updatedAt: row.updatedAt.toISOString(),
  };
}
