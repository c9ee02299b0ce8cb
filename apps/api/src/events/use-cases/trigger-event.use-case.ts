import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DomainError, GroupCommit, LOGGER, newId, type GroupCommitOptions } from '#common';
import {
  BROADCAST_MARK,
  contextReferencesOf,
  parseRecipients,
  payloadErrors,
  tenantIdentifierOf,
  withStoredData,
  WorkflowCache,
} from '#application';
import {
  ContextRepository,
  TenantRepository,
  TriggerEventRepository,
  type NewTriggerEventRow,
  type StoredEventRef,
  type WorkflowRow,
} from '#dal';
import { fanOutEntries, JobQueue } from '#event-processing/producer';
import type { AuthContext } from '../../auth/auth-context.js';
import type { TriggerEventDto, TriggerResponseDto } from '../dto/trigger-event.dto.js';
import { overrideErrors } from '../dto/override-validators.js';
import { writtenSubscriberErrors } from '../dto/trigger-validators.js';

/** An event checked by the API: either answered already (an early status) or ready to store. */
export type PreparedTrigger = { response: TriggerResponseDto; row?: NewTriggerEventRow };

const WORKFLOW_NOT_FOUND = 'workflow_not_found';

/**
 * Up to 200 requests per insert or enqueue. A failed one fails every request in it, none written
 * again alone: with the database or the queue unreachable, each retry would wait in turn.
 */
const TRIGGER_GROUP_COMMIT: GroupCommitOptions = { maxBatch: 200 };

/**
 * Operation 8: decides the early statuses, then stores the event (the outbox) and enqueues its
 * fan-out. No per-recipient work happens here; the worker expands recipients.
 */
@Injectable()
export class TriggerEventUseCase {
  /**
   * Concurrent single triggers share one multi-row insert (one synchronous commit: each request is
   * still answered only after its own row is durable) and one addBulk. Per-statement work in Node,
   * not PostgreSQL, bounds the accept rate.
   */
  private readonly inserts = new GroupCommit<NewTriggerEventRow, StoredEventRef | undefined>(
    (_group, rows) => this.insertNew(rows),
    TRIGGER_GROUP_COMMIT,
  );
  private readonly enqueues = new GroupCommit<StoredEventRef>(
    (_group, rows) => this.enqueueFanOut(rows),
    TRIGGER_GROUP_COMMIT,
  );

  constructor(
    private readonly workflows: WorkflowCache,
    private readonly tenants: TenantRepository,
    private readonly contexts: ContextRepository,
    private readonly events: TriggerEventRepository,
    private readonly queue: JobQueue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(auth: AuthContext, body: TriggerEventDto, requestId: string): Promise<TriggerResponseDto> {
    const workflow = await this.workflows.byIdentifier(auth.environmentId, body.name);
    const [response] = await this.accept([await this.prepare(auth, body, workflow)], requestId);
    return response;
  }

  /**
   * Throws a 422 when a subscriber the trigger writes (`to`, `actor`) breaks the subscriber rules or
   * `overrides` has a field of the wrong shape (an `overrides.email` address that is not one address), and `workflow_not_found` when the workflow is
   * missing; every other outcome is a status.
   */
  async prepare(
    auth: AuthContext,
    body: TriggerEventDto,
    workflow: WorkflowRow | undefined,
    broadcast = false,
  ): Promise<PreparedTrigger> {
    const fieldErrors = { ...writtenSubscriberErrors(body.to, body.actor), ...overrideErrors(body.overrides) };
    const [firstError] = Object.entries(fieldErrors);
    if (firstError) {
      // The message names the field: a bulk event's answer carries only the message.
      throw new DomainError('VALIDATION_FAILED', `${firstError[0]}: ${firstError[1].messages[0]}`, fieldErrors);
    }
    if (!workflow) {
      throw new DomainError('VALIDATION_FAILED', WORKFLOW_NOT_FOUND, {
        name: { messages: [WORKFLOW_NOT_FOUND], value: body.name },
      });
    }
    const [payloadError] = Object.entries(
      workflow.validatePayload && workflow.payloadSchema
        ? payloadErrors(workflow.payloadSchema, body.payload ?? {})
        : {},
    );
    if (payloadError) {
      throw new DomainError('VALIDATION_FAILED', payloadError[1].messages[0], Object.fromEntries([payloadError]));
    }
    const transactionId = body.transactionId ?? newId();
    const answer = (status: TriggerResponseDto['status'], error?: string[]): PreparedTrigger => ({
      response: { acknowledged: true, status, ...(error ? { error } : {}), transactionId },
    });

    const tenantIdentifier = tenantIdentifierOf(body.tenant);
    if (
      tenantIdentifier !== undefined &&
      !(await this.tenants.findByIdentifier(auth.environmentId, tenantIdentifier))
    ) {
      return answer('no_tenant_found');
    }
    // Novu keeps `draft` the opposite of `active` (create and the status route write both); a
    // workflow stored with both set is still unpublished, so it is not run either.
    if (!workflow.active || workflow.draft) return answer('trigger_not_active');
    if (workflow.steps.length === 0) return answer('no_workflow_steps_defined');
    if (!workflow.steps.some((step) => step.active)) return answer('no_workflow_active_steps_defined');
    // A broadcast names no recipients: the fan-out reads the environment's subscribers.
    const recipients = parseRecipients(body.to);
    if (!broadcast && recipients.subscribers.length === 0 && recipients.topics.length === 0) {
      return answer('invalid_recipients', recipients.errors.length > 0 ? recipients.errors : ['to has no recipients']);
    }

    const request = {
      name: body.name,
      to: body.to,
      payload: body.payload ?? {},
      overrides: body.overrides ?? {},
      actor: body.actor,
      tenant: body.tenant,
      context: body.context,
      ...(broadcast ? BROADCAST_MARK : {}),
    };
    return {
      ...answer('processed'),
      row: {
        id: newId(),
        environmentId: auth.environmentId,
        organizationId: auth.organizationId,
        transactionId,
        workflowId: workflow.id,
        request,
      },
    };
  }

  /**
   * One multi-row insert for all stored events; a transactionId seen before inserts nothing and is
   * answered `processed` as the first time. Only newly stored events are enqueued (one addBulk).
   */
  async accept(prepared: PreparedTrigger[], requestId: string): Promise<TriggerResponseDto[]> {
    const rows = prepared.flatMap((item) => (item.row ? [item.row] : []));
    await this.resolveContexts(rows);
    // A single trigger joins the concurrent ones' statements; a bulk request is a batch already.
    const inserted =
      rows.length === 1
        ? [await this.inserts.submit('', rows[0])].filter((row) => row !== undefined)
        : await this.events.insertMany(rows);
    try {
      if (inserted.length === 1) await this.enqueues.submit('', inserted[0]);
      else await this.enqueueFanOut(inserted);
    } catch (error) {
      // The events are stored: the recovery sweeper enqueues them once the queue is back.
      this.logger.warn({ err: error, events: inserted.length }, 'fan-out enqueue failed; left to the recovery sweeper');
    }
    this.logAccepted(prepared, requestId);
    return prepared.map((item) => item.response);
  }

  /**
   * The contexts the events name, created or read in one statement for all of them; each event keeps
   * its contexts with their data, which its steps render.
   */
  private async resolveContexts(rows: NewTriggerEventRow[]): Promise<void> {
    const named = rows.filter((row) => row.request.context !== undefined);
    if (named.length === 0) return;
    const stored = await this.contexts.resolve(
      { environmentId: named[0].environmentId, organizationId: named[0].organizationId },
      named.flatMap((row) => contextReferencesOf(row.request.context)),
    );
    for (const row of named) row.request.context = withStoredData(row.request.context, stored);
  }

  /** Each row's stored event, or undefined when its transactionId was seen before (nothing inserted). */
  private async insertNew(rows: NewTriggerEventRow[]): Promise<(StoredEventRef | undefined)[]> {
    const stored = new Map((await this.events.insertMany(rows)).map((row) => [row.id, row]));
    return rows.map((row) => stored.get(row.id));
  }

  private async enqueueFanOut(rows: StoredEventRef[]): Promise<void> {
    await this.queue.addBulk('fan-out', fanOutEntries(rows));
  }

  /** The link between a request (reqId) and the worker's lines for the same trigger (transactionId). */
  private logAccepted(prepared: PreparedTrigger[], requestId: string): void {
    if (!this.logger.isLevelEnabled('info')) return;
    for (const { response, row } of prepared) {
      this.logger.info(
        {
          reqId: requestId,
          transactionId: response.transactionId,
          eventId: row?.id,
          status: response.status,
          workflow: row?.request.name,
        },
        'event accepted',
      );
    }
  }
}
