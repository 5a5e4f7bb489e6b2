import { hash } from 'node:crypto';

const digest = (leadId: string, kind: string, key: string): string =>
  hash('sha256', `${leadId}\u0000${kind}\u0000${key}`, 'hex');

/**
 * An event's stored id, derived from the lead and the client's event id (or the event's content when
 * the client sent none). The same send twice gives the same id, so it is stored once; two leads can
 * never collide, whatever ids their browsers choose.
 */
export function eventId(leadId: string, kind: string, key: string): string {
  return digest(leadId, kind, key).slice(0, 32);
}

/** Seconds since 1970 as 8 hex digits, or none for a time that is not one. */
function timePrefix(ms: number): string | undefined {
  const seconds = Math.floor(ms / 1000);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= 0xffffffff
    ? seconds.toString(16).padStart(8, '0')
    : undefined;
}

/**
 * A page session's id: the second it started, then 24 hex digits of eventId's digest (decision 41).
 * Ids made near the same time sort together, so the indexes that hold them take each batch's new
 * entries on a few pages instead of one page an entry. `startedAt` must be the same on a retried
 * send (the client's own start time), or undefined: the id is then eventId's, as before.
 */
export function pageSessionId(leadId: string, key: string, startedAt: number | undefined): string {
  const prefix = startedAt === undefined ? undefined : timePrefix(startedAt);
  return prefix === undefined
    ? eventId(leadId, 'session', key)
    : prefix + digest(leadId, 'session', key).slice(0, 24);
}

/**
 * The id of a video record or an action of a session: the session id's first 8 hex digits, then 24 of
 * eventId's digest, so that a session's events sort together, near its start (decision 41).
 */
export function sessionEventId(session: string, leadId: string, kind: string, key: string): string {
  return session.slice(0, 8) + digest(leadId, kind, key).slice(0, 24);
}
