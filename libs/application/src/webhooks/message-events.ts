import type { MessageRow, NewWebhookEvent } from '#dal';
import type { MessageTransition } from '../messages/message-state.js';
import { toMessageResponse } from '../messages/message-response.js';
import { webhookEvent } from './webhook-event.js';
import type { WebhookEventType } from './webhook-event-types.js';

/** The event a state change of an in-app message sends; unseen and the action buttons send none. */
const TRANSITION_EVENTS: Partial<Record<MessageTransition['type'], WebhookEventType>> = {
  read: 'message.read',
  unread: 'message.unread',
  seen: 'message.seen',
  archive: 'message.archived',
  unarchive: 'message.unarchived',
  snooze: 'message.snoozed',
  unsnooze: 'message.unsnoozed',
};

export function transitionEventType(transition: MessageTransition['type']): WebhookEventType | undefined {
  return TRANSITION_EVENTS[transition];
}

/** The events a delivery step's outcome sends. */
export const DELIVERY_EVENT_TYPES: readonly WebhookEventType[] = ['message.sent', 'message.failed'];

/** A delivery step's outcome: sent, or failed (an error, or a warning such as a missing address). */
export function deliveryEventType(row: Pick<MessageRow, 'status'>): WebhookEventType {
  return row.status === 'sent' ? 'message.sent' : 'message.failed';
}

/**
 * One event per message, its data the message in the API's Message shape. The trigger's payload and
 * overrides are left out: they are the trigger's, not the message's, and `GET /v1/messages` has them.
 */
export function messageEvents(type: WebhookEventType, rows: MessageRow[], now: Date): NewWebhookEvent[] {
  return rows.map((row) => {
    const {
      payload: _payload,
      overrides: _overrides,
      ...message
    } = toMessageResponse({
      ...row,
      payload: {},
      overrides: {},
    });
    return webhookEvent(type, message, now, row.subscriberId);
  });
}
