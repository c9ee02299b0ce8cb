import { Injectable } from '@nestjs/common';
import { DomainError, Slots } from '#common';
import type { WorkflowRow } from '#dal';
import { WorkflowCache } from '#application';
import type { AuthContext } from '../../auth/auth-context.js';
import { flattenValidationErrors, validateShallow } from '../../http/validation.js';
import { TriggerEventDto, type TriggerResponseDto } from '../dto/trigger-event.dto.js';
import { TriggerEventUseCase, type PreparedTrigger } from './trigger-event.use-case.js';

/**
 * Bulk events one api process works on at once (25 full requests); the others wait with only their
 * parsed body. Without the bound every admitted request is processed concurrently: each waits
 * hundreds of milliseconds, and its garbage lives long enough to reach the old generation, which
 * drove the api's peak RSS.
 */
const BULK_EVENTS_IN_FLIGHT = 2_500;

/**
 * Operation 9: each event is validated and decided on its own (a bad one answers `error` in its
 * slot); the accepted ones are stored with one insert and enqueued with one addBulk.
 */
@Injectable()
export class BulkTriggerEventUseCase {
  private readonly slots = new Slots(BULK_EVENTS_IN_FLIGHT);

  constructor(
    private readonly workflows: WorkflowCache,
    private readonly trigger: TriggerEventUseCase,
  ) {}

  async execute(
    auth: AuthContext,
    events: Record<string, unknown>[],
    requestId: string,
  ): Promise<TriggerResponseDto[]> {
    const release = await this.slots.take(events.length);
    try {
      const workflows = await this.loadWorkflows(auth.environmentId, events);
      const prepared = await Promise.all(events.map((event) => this.prepareOne(auth, event, workflows)));
      return await this.trigger.accept(prepared, requestId);
    } finally {
      release();
    }
  }

  private async loadWorkflows(
    environmentId: string,
    events: Record<string, unknown>[],
  ): Promise<Map<string, WorkflowRow | undefined>> {
    const names = [
      ...new Set(events.map((event) => event.name).filter((name): name is string => typeof name === 'string')),
    ];
    const rows = await Promise.all(names.map((name) => this.workflows.byIdentifier(environmentId, name)));
    return new Map(names.map((name, index) => [name, rows[index]]));
  }

  private async prepareOne(
    auth: AuthContext,
    raw: Record<string, unknown>,
    workflows: Map<string, WorkflowRow | undefined>,
  ): Promise<PreparedTrigger> {
    const transactionId = typeof raw.transactionId === 'string' ? raw.transactionId : undefined;
    const failed = (error: string[]): PreparedTrigger => ({
      response: { acknowledged: true, status: 'error', error, transactionId },
    });
    // Whitelisted fields only, not deep-copied (see ShallowValidation).
    const { dto, errors } = validateShallow(TriggerEventDto, raw);
    if (errors.length > 0) {
      return failed(Object.entries(flattenValidationErrors(errors)).flatMap(([, field]) => field.messages));
    }
    try {
      return await this.trigger.prepare(auth, dto, workflows.get(dto.name));
    } catch (error) {
      if (error instanceof DomainError) return failed([error.message]);
      throw error;
    }
  }
}
