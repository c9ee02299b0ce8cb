import { Injectable } from '@nestjs/common';
import { Clock, DomainError, hasMetadata, newId, stepRegistration, type FieldErrors } from '#common';
import {
  isUniqueViolation,
  WorkflowRepository,
  type DbExecutor,
  type NotificationGroupRow,
  type StoredStep,
  type WorkflowRow,
  type WorkflowScope,
  type WorkflowValues,
} from '#dal';
import { TemplateEngine } from '../templates/template-engine.js';
import { webhookEvent } from '../webhooks/webhook-event.js';
import type { WebhookEventType } from '../webhooks/webhook-event-types.js';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { toWorkflowV2Response } from './workflow-v2-response.js';
import { literalUrlErrors } from './literal-url-errors.js';
import { payloadSchemaError } from './payload-schema.js';
import { slugify } from './slugify.js';
import type { StepInput, WorkflowInput } from './workflow-input.js';

export const DEFAULT_NOTIFICATION_GROUP = 'General';

const metadataIsTemplates = (type: string) => stepRegistration(type)?.metadata === 'templates';

/** Validated class instances become plain JSON for the jsonb columns. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Columns a partial update's `null` clears; the other columns have defaults, not nulls. */
const NULLABLE_FIELDS = new Set(['data', 'payloadSchema', 'preferences']);

function withoutNulls(fields: Partial<WorkflowInput>): Partial<WorkflowValues> {
  return Object.fromEntries(
    Object.entries(plain(fields)).filter(([key, value]) => value !== null || NULLABLE_FIELDS.has(key)),
  );
}

/**
 * Step ids stay stable across updates when the client sends them back; new steps get new ids. Files
 * of WORKFLOWS_DIR carry no ids, so there a step keeps the id of the step at its position.
 */
export function buildSteps(
  definitions: StepInput[],
  previous: StoredStep[] = [],
  keepByPosition = false,
): StoredStep[] {
  const known = new Set(previous.map((step) => step._id));
  return definitions.map((definition, index) => {
    const positional = keepByPosition && !definition._id ? previous[index]?._id : undefined;
    const id = definition._id && known.has(definition._id) ? definition._id : (positional ?? newId());
    const step: StoredStep = {
      _id: id,
      _templateId: id,
      name: definition.name ?? definition.template.type,
      active: definition.active ?? true,
      shouldStopOnFail: definition.shouldStopOnFail ?? false,
      template: plain(definition.template),
      filters: (definition.filters ?? []).map((filter) => ({ isNegated: false, ...plain(filter) })),
    };
    if (hasMetadata(definition.template.type) && definition.metadata) step.metadata = plain(definition.metadata);
    if (definition.replyCallback) step.replyCallback = plain(definition.replyCallback);
    if (definition.stepId) step.stepId = definition.stepId;
    if (definition.controlValues) step.controlValues = plain(definition.controlValues);
    if (definition.variants?.length)
      step.variants = buildSteps(definition.variants, previous.find((old) => old._id === id)?.variants, keepByPosition);
    return step;
  });
}

function changedSince(id: string, expectedUpdatedAt: Date): DomainError {
  return new DomainError(
    'PRECONDITION_FAILED',
    `Workflow ${id} was saved or deleted after ${expectedUpdatedAt.toISOString()} (If-Match): read it again`,
  );
}

/** Turns workflow definitions into rows: shared by the HTTP routes and the WORKFLOWS_DIR loader. */
@Injectable()
export class WorkflowWriter {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly templates: TemplateEngine,
    private readonly outbox: WebhookOutbox,
    private readonly clock: Clock,
  ) {}

  /**
   * Every template string of every step that does not parse (syntax, unknown filter, a tag that would
   * load a file) and every cta url a client must not open (literal-url-errors.ts), as
   * `{ 'steps[0].template.content': { messages } }`: a broken template is refused when saved rather
   * than failing each recipient's step at delivery.
   */
  templateErrors(steps: StepInput[]): FieldErrors {
    const urls = steps.flatMap((step, index) => [
      literalUrlErrors(step.template, `steps[${index}].template`),
      ...(step.variants ?? []).map((variant, at) =>
        literalUrlErrors(variant.template, `steps[${index}].variants[${at}].template`),
      ),
    ]);
    const liquid = Object.assign(
      {},
      ...steps.map((step, index) => this.templates.errorsOf(step.template, `steps[${index}].template`)),
      // Some step types' metadata is templates too (an http_request's url, headers and body).
      ...steps.map((step, index) =>
        metadataIsTemplates(step.template.type)
          ? this.templates.errorsOf(step.metadata, `steps[${index}].metadata`)
          : {},
      ),
      ...steps.map((step, index) => this.variantErrors(step, `steps[${index}]`)),
    ) as Record<string, string>;
    const fields = Object.entries(liquid).map(([path, message]) => [path, { messages: [message] }]);
    return Object.assign(Object.fromEntries(fields) as FieldErrors, ...urls) as FieldErrors;
  }

  /** A variant is checked as its step is, and keeps its step's type (the job's channel). */
  private variantErrors(step: StepInput, path: string): Record<string, string> {
    const type = step.template.type;
    return Object.assign(
      {},
      ...(step.variants ?? []).map((variant, index) => {
        const at = `${path}.variants[${index}]`;
        if (variant.template.type !== type)
          return { [`${at}.template.type`]: `a variant has the type of its step (${type})` };
        return {
          ...this.templates.errorsOf(variant.template, `${at}.template`),
          ...(metadataIsTemplates(type) ? this.templates.errorsOf(variant.metadata, `${at}.metadata`) : {}),
        };
      }),
    ) as Record<string, string>;
  }

  async create(
    scope: WorkflowScope,
    creatorId: string | null,
    definition: WorkflowInput,
  ): Promise<{ row: WorkflowRow; group: NotificationGroupRow }> {
    this.assertTemplates(definition.steps);
    this.assertPayloadSchema(definition.payloadSchema);
    const group = await this.resolveGroup(scope, definition.notificationGroupId);
    const values = this.toValues(definition, group.id, creatorId);
    const row = await this.withEvent(scope.environmentId, 'workflow.created', (tx) =>
      this.workflows.create(scope, values, tx),
    );
    if (!row) throw new DomainError('CONFLICT', `Workflow with identifier ${values.identifier} already exists`);
    return { row, group };
  }

  /** Partial: fields left out stay; `steps`, when given, replace the list (ids sent back are kept). */
  /** `expectedUpdatedAt`: the version the caller read (If-Match); a newer one is not overwritten (412). */
  async update(
    scope: WorkflowScope,
    current: WorkflowRow,
    changes: Partial<WorkflowInput>,
    expectedUpdatedAt?: Date,
  ): Promise<{ row: WorkflowRow; group: NotificationGroupRow }> {
    if (expectedUpdatedAt && current.updatedAt.getTime() !== expectedUpdatedAt.getTime())
      throw changedSince(current.id, expectedUpdatedAt);
    if (changes.steps) this.assertTemplates(changes.steps);
    this.assertPayloadSchema(changes.payloadSchema);
    const group = changes.notificationGroupId
      ? await this.resolveGroup(scope, changes.notificationGroupId)
      : ((await this.workflows.findGroupById(scope.environmentId, current.notificationGroupId)) ??
        (await this.resolveGroup(scope)));
    const { notificationGroupId: _ignored, steps, preferenceSettings, ...fields } = changes;
    const values = {
      ...withoutNulls(fields),
      ...(preferenceSettings ? { preferenceSettings: plain(preferenceSettings) as Record<string, boolean> } : {}),
      ...(steps ? { steps: buildSteps(steps, current.steps) } : {}),
      notificationGroupId: group.id,
    };
    try {
      const row = await this.withEvent(scope.environmentId, 'workflow.updated', (tx) =>
        this.workflows.update(scope.environmentId, current.id, values, tx, expectedUpdatedAt),
      );
      if (!row && expectedUpdatedAt) throw changedSince(current.id, expectedUpdatedAt);
      if (!row) throw new DomainError('WORKFLOW_NOT_FOUND', `Workflow ${current.id} not found`);
      return { row, group };
    } catch (error) {
      if (isUniqueViolation(error))
        throw new DomainError('CONFLICT', `Workflow with identifier ${changes.identifier} already exists`);
      throw error;
    }
  }

  /** Novu's status switch: activating publishes the workflow (clears `draft`), deactivating makes it a draft. */
  async setActive(environmentId: string, current: WorkflowRow, active: boolean): Promise<WorkflowRow> {
    if (current.active === active && current.draft === !active) return current;
    const row = await this.withEvent(environmentId, 'workflow.updated', (tx) =>
      this.workflows.update(environmentId, current.id, { active, draft: !active }, tx),
    );
    return row ?? current;
  }

  async delete(environmentId: string, current: WorkflowRow, deletedBy: string): Promise<WorkflowRow | undefined> {
    return this.withEvent(environmentId, 'workflow.deleted', (tx) =>
      this.workflows.softDelete(environmentId, current.id, deletedBy, this.clock.now(), tx),
    );
  }

  /** A workflow change committed with its webhook event (the workflow in the v2 API's shape). */
  private withEvent(
    environmentId: string,
    type: WebhookEventType,
    change: (tx: DbExecutor) => Promise<WorkflowRow | undefined>,
  ): Promise<WorkflowRow | undefined> {
    const now = this.clock.now();
    return this.outbox.commitWithEvents(environmentId, now, change, (row) =>
      row ? [webhookEvent(type, { ...toWorkflowV2Response(row) }, now)] : [],
    );
  }

  /**
   * Insert or replace by trigger identifier (WORKFLOWS_DIR: the file is the truth). Sends no webhook
   * event: every boot loads the files again, changed or not.
   */
  async upsert(scope: WorkflowScope, definition: WorkflowInput): Promise<WorkflowRow> {
    this.assertTemplates(definition.steps);
    this.assertPayloadSchema(definition.payloadSchema);
    const group = await this.resolveGroup(scope, definition.notificationGroupId);
    const existing = await this.workflows.findByIdentifier(scope.environmentId, this.identifierOf(definition));
    const values = this.toValues(definition, group.id, existing?.creatorId ?? null);
    values.steps = buildSteps(definition.steps, existing?.steps, true);
    return this.workflows.upsertByIdentifier(scope, values);
  }

  async groupsOf(environmentId: string, rows: WorkflowRow[]): Promise<Map<string, NotificationGroupRow>> {
    const groups = await this.workflows.findGroupsByIds(environmentId, [
      ...new Set(rows.map((row) => row.notificationGroupId)),
    ]);
    return new Map(groups.map((group) => [group.id, group]));
  }

  /** A payload schema that is not a usable JSON Schema (or too large) is refused at save, whatever the door. */
  private assertPayloadSchema(schema: unknown): void {
    if (schema === undefined || schema === null) return;
    const error = payloadSchemaError(schema);
    if (error) throw DomainError.validation('payloadSchema', `payloadSchema ${error}`);
  }

  private assertTemplates(steps: StepInput[]): void {
    const fields = this.templateErrors(steps);
    const errors = Object.entries(fields);
    if (errors.length === 0) return;
    throw new DomainError(
      'VALIDATION_FAILED',
      errors.map(([path, { messages }]) => `${path}: ${messages.join('; ')}`).join('; '),
      fields,
    );
  }

  private identifierOf(definition: WorkflowInput): string {
    const identifier = definition.identifier ?? slugify(definition.name);
    if (!identifier)
      throw DomainError.validation(
        'identifier',
        'identifier is required when the name has no letters or digits',
        definition.identifier,
      );
    return identifier;
  }

  private toValues(definition: WorkflowInput, notificationGroupId: string, creatorId: string | null): WorkflowValues {
    return {
      identifier: this.identifierOf(definition),
      name: definition.name,
      description: definition.description ?? '',
      active: definition.active ?? true,
      draft: definition.draft ?? false,
      critical: definition.critical ?? false,
      preferenceSettings: plain(definition.preferenceSettings ?? {}) as Record<string, boolean>,
      tags: definition.tags ?? [],
      steps: buildSteps(definition.steps),
      data: definition.data ?? null,
      notificationGroupId,
      creatorId,
      origin: definition.origin ?? 'novu-cloud-v1',
      payloadSchema: definition.payloadSchema ? plain(definition.payloadSchema) : null,
      validatePayload: definition.validatePayload ?? false,
      isTranslationEnabled: definition.isTranslationEnabled ?? false,
      preferences: definition.preferences ? plain(definition.preferences) : null,
    };
  }

  private async resolveGroup(scope: WorkflowScope, id?: string): Promise<NotificationGroupRow> {
    if (!id) return this.workflows.findOrCreateGroup(scope, DEFAULT_NOTIFICATION_GROUP);
    const group = await this.workflows.findGroupById(scope.environmentId, id);
    if (!group) throw DomainError.validation('notificationGroupId', `Notification group ${id} not found`, id);
    return group;
  }
}
