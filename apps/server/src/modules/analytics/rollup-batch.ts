/**
 * A batch of raw rows through the pure core (rollup-core.ts), over the state rows a store has loaded
 * for it: the in-memory store and the database's batches run this same code, so the property test
 * that checks the one checks the logic of the other (decision 25).
 */
import type {
  ActionInput,
  ConversionInput,
  DayOf,
  LeadInput,
  SessionInput,
  VideoRecordInput,
} from './analytics-types';
import {
  applyAction,
  applyConversion,
  applyLead,
  applySession,
  applySessionEnd,
  applyVideoRecord,
} from './rollup-core';
import {
  mergeDeltas,
  type AggregateRow,
  type LeadPageState,
  type LeadState,
  type SessionState,
} from './rollup-rows';

/** One raw row as inserted, or a session's end reason set later. */
export type RawEvent =
  | { kind: 'lead'; row: LeadInput }
  | { kind: 'session'; row: SessionInput }
  | { kind: 'sessionEnd'; sessionId: string; endReason: string }
  | { kind: 'videoRecord'; row: VideoRecordInput }
  | { kind: 'action'; row: ActionInput }
  | { kind: 'conversion'; row: ConversionInput };

/** The day numbers of a lead's account (its time zone): a batch mixes accounts. */
export type DayOfLead = (leadId: string) => DayOf;

export const leadPageKey = (leadId: string, pageId: string): string => `${leadId}\u0000${pageId}`;

/** The state rows a batch reads and changes, by key; a store fills them before the batch. */
export interface RollupStates {
  leads: Map<string, LeadState>;
  sessions: Map<string, SessionState>;
  /** By leadPageKey. */
  leadPages: Map<string, LeadPageState>;
}

/** What a batch changed: the state rows to write, and its aggregate deltas merged. */
export interface BatchOutcome {
  sessions: SessionState[];
  leadPages: LeadPageState[];
  deltas: AggregateRow[];
}

/** The sessions and leads a batch's events name: what a store loads first. */
export function sessionsAndLeadsOf(events: readonly RawEvent[]): { sessionIds: string[]; leadIds: string[] } {
  const sessionIds = new Set<string>();
  const leadIds = new Set<string>();
  for (const event of events) {
    switch (event.kind) {
      case 'lead':
        leadIds.add(event.row.id);
        break;
      case 'session':
        sessionIds.add(event.row.id);
        leadIds.add(event.row.leadId);
        break;
      case 'sessionEnd':
        sessionIds.add(event.sessionId);
        break;
      case 'videoRecord':
        sessionIds.add(event.row.pageSessionId);
        break;
      case 'action':
        if (event.row.pageSessionId !== null) sessionIds.add(event.row.pageSessionId);
        break;
      case 'conversion':
        leadIds.add(event.row.leadId);
        break;
    }
  }
  return { sessionIds: [...sessionIds], leadIds: [...leadIds] };
}

/**
 * The (lead, page) pairs a batch touches, once its sessions are known (loaded, or started in the
 * batch): what a store loads second.
 */
export function leadPagesOf(
  events: readonly RawEvent[],
  sessions: ReadonlyMap<string, Pick<SessionState, 'leadId' | 'pageId'>>,
): { leadId: string; pageId: string }[] {
  const pairs = new Map<string, { leadId: string; pageId: string }>();
  const add = (leadId: string, pageId: string) => pairs.set(leadPageKey(leadId, pageId), { leadId, pageId });
  const ofSession = new Map<string, Pick<SessionState, 'leadId' | 'pageId'>>(sessions);
  for (const event of events) {
    if (event.kind === 'session') ofSession.set(event.row.id, event.row);
  }
  for (const event of events) {
    const sessionId =
      event.kind === 'session'
        ? event.row.id
        : event.kind === 'sessionEnd'
          ? event.sessionId
          : event.kind === 'videoRecord'
            ? event.row.pageSessionId
            : event.kind === 'action'
              ? event.row.pageSessionId
              : null;
    const session = sessionId === null ? undefined : ofSession.get(sessionId);
    if (session !== undefined) add(session.leadId, session.pageId);
    if (event.kind === 'conversion' && event.row.pageId !== null) add(event.row.leadId, event.row.pageId);
  }
  return [...pairs.values()];
}

/**
 * Applies the events in order to `states` (changed in place) and returns what changed. Every event
 * must be new (a store drops the ids it has seen); a session comes before its events, a lead before
 * its sessions.
 */
export function applyBatch(
  events: readonly RawEvent[],
  states: RollupStates,
  dayOfLead: DayOfLead,
): BatchOutcome {
  const deltas: AggregateRow[] = [];
  const changedSessions = new Set<string>();
  const changedLeadPages = new Set<string>();

  const sessionOf = (id: string): SessionState => {
    const session = states.sessions.get(id);
    if (session === undefined)
      throw new Error(`unknown session ${id}: a session is stored before its events`);
    return session;
  };
  const leadPageOf = (session: SessionState): LeadPageState => {
    const leadPage = states.leadPages.get(leadPageKey(session.leadId, session.pageId));
    if (leadPage === undefined) throw new Error(`no lead page for session ${session.sessionId}`);
    return leadPage;
  };
  // The apply functions return the state row they were given when nothing of it changed: it is
  // then not written again.
  const keep = (session: SessionState | undefined, leadPage: LeadPageState | undefined) => {
    if (session !== undefined && states.sessions.get(session.sessionId) !== session) {
      states.sessions.set(session.sessionId, session);
      changedSessions.add(session.sessionId);
    }
    if (leadPage !== undefined) {
      const key = leadPageKey(leadPage.leadId, leadPage.pageId);
      if (states.leadPages.get(key) !== leadPage) {
        states.leadPages.set(key, leadPage);
        changedLeadPages.add(key);
      }
    }
  };

  for (const event of events) {
    switch (event.kind) {
      case 'lead': {
        const applied = applyLead(states.leads.get(event.row.id), event.row, dayOfLead(event.row.id));
        states.leads.set(applied.lead.leadId, applied.lead);
        deltas.push(...applied.deltas);
        break;
      }
      case 'session': {
        const { row } = event;
        const applied = applySession(
          {
            lead: states.leads.get(row.leadId),
            leadPage: states.leadPages.get(leadPageKey(row.leadId, row.pageId)),
            session: states.sessions.get(row.id),
          },
          row,
          dayOfLead(row.leadId),
        );
        keep(applied.session, applied.leadPage);
        deltas.push(...applied.deltas);
        break;
      }
      case 'sessionEnd': {
        const session = sessionOf(event.sessionId);
        const applied = applySessionEnd({ session, leadPage: leadPageOf(session) }, event.endReason);
        keep(applied.session, applied.leadPage);
        deltas.push(...applied.deltas);
        break;
      }
      case 'videoRecord': {
        const session = sessionOf(event.row.pageSessionId);
        const applied = applyVideoRecord({ session, leadPage: leadPageOf(session) }, event.row);
        keep(applied.session, applied.leadPage);
        deltas.push(...applied.deltas);
        break;
      }
      case 'action': {
        // An action outside a page session belongs to no page.
        if (event.row.pageSessionId === null) break;
        const session = sessionOf(event.row.pageSessionId);
        const applied = applyAction(
          { session, leadPage: leadPageOf(session) },
          event.row,
          dayOfLead(session.leadId),
        );
        keep(undefined, applied.leadPage);
        deltas.push(...applied.deltas);
        break;
      }
      case 'conversion': {
        const { row } = event;
        const applied = applyConversion(
          {
            lead: states.leads.get(row.leadId),
            leadPage:
              row.pageId === null ? undefined : states.leadPages.get(leadPageKey(row.leadId, row.pageId)),
          },
          row,
          dayOfLead(row.leadId),
        );
        keep(undefined, applied.leadPage);
        deltas.push(...applied.deltas);
        break;
      }
    }
  }
  return {
    sessions: [...changedSessions].map((id) => states.sessions.get(id) as SessionState),
    leadPages: [...changedLeadPages].map((key) => states.leadPages.get(key) as LeadPageState),
    deltas: mergeDeltas(deltas),
  };
}
