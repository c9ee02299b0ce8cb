import { Injectable } from '@nestjs/common';
import { MessageStateService } from '#application';
import type { MarkAs, MessageView } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';

/**
 * Operation 3 (BEHAVIOR §3) through the messages' state machine: only this subscriber's in-app
 * messages; other ids drop out of the result, which keeps the order of the ids given.
 */
@Injectable()
export class MarkMessagesUseCase {
  constructor(private readonly state: MessageStateService) {}

  async execute(
    auth: AuthContext,
    subscriberId: string,
    messageId: string | string[],
    markAs: MarkAs,
  ): Promise<MessageView[]> {
    const ids = [...new Set(Array.isArray(messageId) ? messageId : [messageId])];
    const rows = await this.state.applyAll(auth.environmentId, subscriberId, { ids }, { type: markAs });
    const order = new Map(ids.map((id, index) => [id, index]));
    return this.state.views(
      auth.environmentId,
      rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!),
    );
  }
}
