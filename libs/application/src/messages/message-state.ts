import { DomainError } from '#common';
import type { InboxChanges, InboxFilter, MarkAs, MessageRow } from '#dal';

export const ACTION_TYPES = ['primary', 'secondary'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const ACTION_STATUSES = ['pending', 'done'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/** Everything that changes an in-app message's state, from the v1 mark-as routes and the v2 inbox routes. */
export type MessageTransition =
  | { type: MarkAs }
  | { type: 'archive' | 'unarchive' | 'unsnooze' }
  | { type: 'snooze'; until: Date }
  | { type: 'completeAction' | 'revertAction'; action: ActionType }
  /** Novu's v1 message action route: the status and payload as sent, for any button type. */
  | { type: 'setAction'; action: ActionType; status: ActionStatus; payload?: Record<string, unknown> };

/** Novu's snooze limit: further than this is refused rather than stored. */
export const MAX_SNOOZE_MS = 90 * 24 * 60 * 60 * 1000;

interface CtaAction {
  status?: string;
  buttons?: { type?: unknown }[];
  result?: Record<string, unknown>;
}

function ctaAction(row: Pick<MessageRow, 'cta'>): CtaAction {
  const action = row.cta?.action;
  return typeof action === 'object' && action !== null ? action : {};
}

/**
 * The messages a mark-all changes: those not already in the state it sets. Novu answers the rows it
 * modified, so marking twice answers 0 the second time, and untouched rows keep their dates.
 */
export function notYetMarked(markAs: MarkAs): InboxFilter {
  switch (markAs) {
    case 'read':
      return { read: false };
    case 'unread':
      return { read: true };
    case 'seen':
      return { seen: false };
    case 'unseen':
      return { seen: true };
  }
}

/**
 * The one state machine of a message. Read implies seen, the dates move only with the flag they
 * describe (BEHAVIOR §3); archiving also reads the message, as Novu's inbox does, so an archived
 * message never counts as unread. `row` is needed only by the action transitions, which rewrite the cta.
 */
export function transitionChanges(transition: MessageTransition, now: Date, row?: MessageRow): InboxChanges {
  switch (transition.type) {
    case 'read':
      return { read: true, seen: true, lastReadDate: now, lastSeenDate: now };
    case 'unread':
      return { read: false, seen: true, lastSeenDate: now };
    case 'seen':
      return { seen: true, lastSeenDate: now };
    case 'unseen':
      return { read: false, seen: false };
    case 'archive':
      return { archived: true, archivedAt: now, read: true, seen: true, lastReadDate: now, lastSeenDate: now };
    case 'unarchive':
      return { archived: false, archivedAt: null };
    case 'snooze':
      if (transition.until.getTime() <= now.getTime())
        throw DomainError.validation(
          'snoozeUntil',
          'snoozeUntil must be in the future',
          transition.until.toISOString(),
        );
      if (transition.until.getTime() - now.getTime() > MAX_SNOOZE_MS)
        throw DomainError.validation('snoozeUntil', 'snoozeUntil must be at most 90 days ahead');
      return { snoozedUntil: transition.until };
    // Ending a snooze early brings the message back as delivered now, like the scheduled wake-up.
    case 'unsnooze':
      return row?.snoozedUntil ? { snoozedUntil: null, deliveredAt: now.toISOString() } : {};
    case 'setAction': {
      const action = row ? ctaAction(row) : {};
      const result = { type: transition.action, payload: transition.payload ?? {} };
      return { cta: { ...row?.cta, action: { ...action, status: transition.status, result } } };
    }
    case 'completeAction':
    case 'revertAction': {
      const action = row ? ctaAction(row) : {};
      if (!action.buttons?.some((button) => button.type === transition.action))
        throw new DomainError('BAD_REQUEST', `The notification has no ${transition.action} action`);
      const result =
        transition.type === 'completeAction'
          ? { status: 'done', result: { type: transition.action, payload: action.result?.payload ?? {} } }
          : { status: 'pending', result: {} };
      return { cta: { ...row!.cta, action: { ...action, ...result } } };
    }
  }
}

/** The primary or secondary action is done when the last completed action was that one. */
export function isActionCompleted(row: Pick<MessageRow, 'cta'>, type: ActionType): boolean {
  const action = ctaAction(row);
  return action.status === 'done' && action.result?.type === type;
}

export function actionButton(row: Pick<MessageRow, 'cta'>, type: ActionType): Record<string, unknown> | undefined {
  return ctaAction(row).buttons?.find((button) => button.type === type);
}
