import type { Insertable } from 'kysely';
import type { Database } from '../src/db/schema';

/** A page session as tests store it: started at `at`, open, seen last when it started. */
export function pageSessionRow(session: {
  id: string;
  leadId: string;
  funnelId: string;
  pageId: string;
  at: number;
  startReason?: string;
}): Insertable<Database['pageSessions']> {
  return {
    id: session.id,
    leadId: session.leadId,
    funnelId: session.funnelId,
    pageId: session.pageId,
    startAt: session.at,
    startReason: session.startReason ?? 'INITIAL_LOAD',
    endAt: null,
    endReason: null,
    endInferred: 0,
    details: '{}',
    endDetails: null,
    lastSeenAt: session.at,
  };
}
