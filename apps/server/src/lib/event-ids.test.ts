import { describe, expect, it } from 'vitest';
import { eventId, pageSessionId, sessionEventId } from './event-ids';

describe('event ids', () => {
  it('gives a retried session the same id, and sessions started later ids that sort after', () => {
    const at = Date.UTC(2026, 10, 28, 12);
    const first = pageSessionId('lead-1', 'client-event-1', at);
    expect(pageSessionId('lead-1', 'client-event-1', at)).toBe(first);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(first.slice(0, 8)).toBe((at / 1000).toString(16));
    const later = pageSessionId('lead-2', 'client-event-0', at + 1000);
    expect(later > first).toBe(true);
    expect(pageSessionId('lead-2', 'client-event-1', at)).not.toBe(first);
  });

  it('falls back to the plain event id when the start time is unknown or not a time', () => {
    const plain = eventId('lead-1', 'session', 'client-event-1');
    expect(pageSessionId('lead-1', 'client-event-1', undefined)).toBe(plain);
    expect(pageSessionId('lead-1', 'client-event-1', Number.NaN)).toBe(plain);
    expect(pageSessionId('lead-1', 'client-event-1', -5)).toBe(plain);
  });

  it("puts a session's records and actions beside its start, the same for the same send", () => {
    const session = pageSessionId('lead-1', 'client-event-1', Date.UTC(2026, 10, 28));
    const record = sessionEventId(session, 'lead-1', 'video', 'record-1');
    expect(record.slice(0, 8)).toBe(session.slice(0, 8));
    expect(record).toMatch(/^[0-9a-f]{32}$/);
    expect(sessionEventId(session, 'lead-1', 'video', 'record-1')).toBe(record);
    expect(sessionEventId(session, 'lead-1', 'action', 'record-1')).not.toBe(record);
    expect(sessionEventId(session, 'lead-2', 'video', 'record-1')).not.toBe(record);
  });
});
