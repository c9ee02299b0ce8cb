import { describe, expect, it } from '@jest/globals';
import { DomainError } from '#common';
import type { MessageRow } from '#dal';
import { isActionCompleted, MAX_SNOOZE_MS, transitionChanges } from './message-state.js';

const now = new Date('2026-01-01T12:00:00.000Z');

function message(cta: Record<string, unknown>, snoozedUntil: Date | null = null): MessageRow {
  return { cta, snoozedUntil } as MessageRow;
}

const buttons = [
  { type: 'primary', content: 'Accept' },
  { type: 'secondary', content: 'Decline' },
];

describe('transitionChanges', () => {
  it('read implies seen; unseen also unreads; the dates move only with their flag', () => {
    expect(transitionChanges({ type: 'read' }, now)).toEqual({
      read: true,
      seen: true,
      lastReadDate: now,
      lastSeenDate: now,
    });
    expect(transitionChanges({ type: 'unread' }, now)).toEqual({ read: false, seen: true, lastSeenDate: now });
    expect(transitionChanges({ type: 'seen' }, now)).toEqual({ seen: true, lastSeenDate: now });
    expect(transitionChanges({ type: 'unseen' }, now)).toEqual({ read: false, seen: false });
  });

  it('archive reads the message and stamps archivedAt; unarchive clears both flag and date only', () => {
    expect(transitionChanges({ type: 'archive' }, now)).toMatchObject({ archived: true, archivedAt: now, read: true });
    expect(transitionChanges({ type: 'unarchive' }, now)).toEqual({ archived: false, archivedAt: null });
  });

  it('snooze takes a time in the future and at most 90 days ahead', () => {
    const until = new Date(now.getTime() + 60_000);
    expect(transitionChanges({ type: 'snooze', until }, now)).toEqual({ snoozedUntil: until });
    expect(() => transitionChanges({ type: 'snooze', until: now }, now)).toThrow(DomainError);
    expect(() =>
      transitionChanges({ type: 'snooze', until: new Date(now.getTime() + MAX_SNOOZE_MS + 1) }, now),
    ).toThrow(DomainError);
  });

  it('unsnooze of a snoozed message adds a delivery; of another one changes nothing', () => {
    expect(transitionChanges({ type: 'unsnooze' }, now, message({}, new Date(now.getTime() + 1)))).toEqual({
      snoozedUntil: null,
      deliveredAt: now.toISOString(),
    });
    expect(transitionChanges({ type: 'unsnooze' }, now, message({}))).toEqual({});
  });

  it('completeAction and revertAction need the button; the result records which one was completed', () => {
    const row = message({ data: { url: '/x' }, action: { buttons } });
    const done = transitionChanges({ type: 'completeAction', action: 'secondary' }, now, row);
    expect(done.cta).toEqual({
      data: { url: '/x' },
      action: { buttons, status: 'done', result: { type: 'secondary', payload: {} } },
    });
    const completed = message(done.cta!);
    expect(isActionCompleted(completed, 'secondary')).toBe(true);
    expect(isActionCompleted(completed, 'primary')).toBe(false);
    const reverted = transitionChanges({ type: 'revertAction', action: 'secondary' }, now, completed);
    expect(isActionCompleted(message(reverted.cta!), 'secondary')).toBe(false);
    expect(() => transitionChanges({ type: 'completeAction', action: 'primary' }, now, message({}))).toThrow(
      DomainError,
    );
  });

  it('setAction stores the status and payload as sent, for a button or not', () => {
    const changes = transitionChanges(
      { type: 'setAction', action: 'primary', status: 'done', payload: { answer: 'yes' } },
      now,
      message({}),
    );
    expect(changes.cta).toEqual({
      action: { status: 'done', result: { type: 'primary', payload: { answer: 'yes' } } },
    });
  });
});
