import { describe, expect, it } from '@jest/globals';
import { MAX_WEBHOOK_EVENT_BYTES, webhookEvent } from './webhook-event.js';

const now = new Date('2026-01-02T03:04:05.000Z');
const dataOf = (body: string) => (JSON.parse(body) as { data: unknown }).data;

describe('webhookEvent', () => {
  it('sends small data whole, as { type, timestamp, data }', () => {
    const event = webhookEvent('message.sent', { id: 'm1', content: 'hello' }, now, 'subscriber-row');
    expect(JSON.parse(event.body)).toEqual({
      type: 'message.sent',
      timestamp: '2026-01-02T03:04:05.000Z',
      data: { id: 'm1', content: 'hello' },
    });
    expect(event).toMatchObject({ type: 'message.sent', subscriberId: 'subscriber-row' });
  });

  it('cuts the largest fields of data over the limit, names them, and keeps the body within it', () => {
    const data = { id: 'm1', content: 'é'.repeat(40_000), payload: { text: 'x'.repeat(30_000) }, small: 'kept' };
    const event = webhookEvent('message.sent', data, now);
    expect(Buffer.byteLength(event.body)).toBeLessThanOrEqual(MAX_WEBHOOK_EVENT_BYTES);
    expect(dataOf(event.body)).toEqual({
      id: 'm1',
      content: null,
      payload: { text: 'x'.repeat(30_000) },
      small: 'kept',
      _truncated: ['content'],
    });
  });

  it('measures bytes, not characters: multi-byte text under the character count but over the byte limit is cut', () => {
    const content = '€'.repeat(Math.floor(MAX_WEBHOOK_EVENT_BYTES / 3) + 10);
    expect(content.length).toBeLessThan(MAX_WEBHOOK_EVENT_BYTES);
    const event = webhookEvent('message.sent', { content }, now);
    expect(dataOf(event.body)).toEqual({ content: null, _truncated: ['content'] });
  });
});
