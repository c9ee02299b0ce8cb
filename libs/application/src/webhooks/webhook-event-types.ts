/** The events an endpoint can ask for; an endpoint that names none receives all of them. */
export const WEBHOOK_EVENT_TYPES = [
  'message.sent',
  'message.failed',
  'message.seen',
  'message.read',
  'message.unread',
  'message.archived',
  'message.unarchived',
  'message.snoozed',
  'message.unsnoozed',
  'message.deleted',
  'workflow.created',
  'workflow.updated',
  'workflow.deleted',
  'workflow.published',
  'subscriber.created',
  'subscriber.deleted',
  'preference.updated',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
