import { hash } from 'node:crypto';

/**
 * An event's stored id, derived from the lead and the client's event id (or the event's content when
 * the client sent none). The same send twice gives the same id, so it is stored once; two leads can
 * never collide, whatever ids their browsers choose.
 */
export function eventId(leadId: string, kind: string, key: string): string {
  return hash('sha256', `${leadId}\u0000${kind}\u0000${key}`, 'hex').slice(0, 32);
}
