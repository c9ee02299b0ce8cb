import { Injectable } from '@nestjs/common';
import { WorkflowCache } from '#application';
import type { AuthContext } from '../../auth/auth-context.js';
import type { BroadcastEventDto } from '../dto/broadcast-event.dto.js';
import type { TriggerResponseDto } from '../dto/trigger-event.dto.js';
import { TriggerEventUseCase } from './trigger-event.use-case.js';

/**
 * POST /v1/events/trigger/broadcast: a trigger whose recipients are every live subscriber of the
 * environment when the worker fans it out, in the same chunks as a topic. The answer and the early
 * statuses are a trigger's.
 */
@Injectable()
export class BroadcastEventUseCase {
  constructor(
    private readonly workflows: WorkflowCache,
    private readonly trigger: TriggerEventUseCase,
  ) {}

  async execute(auth: AuthContext, body: BroadcastEventDto, requestId: string): Promise<TriggerResponseDto> {
    const workflow = await this.workflows.byIdentifier(auth.environmentId, body.name);
    const prepared = await this.trigger.prepare(auth, { ...body, to: [] }, workflow, true);
    const [response] = await this.trigger.accept([prepared], requestId);
    return response;
  }
}
