import type { Kysely } from 'kysely';
import { runStatements, type Db } from '../../db';
import type { StatementText } from '../../db/reusable-query';
import type { Database } from '../../db/schema';
import { dayOfZone } from '../../lib/zone-days';
import type { DayOf, DayRange, FunnelNumbers, PageInput, PageNumbers } from './analytics-types';
import type { AnalyticsRepo, StoredLead, StoredSession } from './analytics.repo';
import type { CrossProcessLock } from './rollup-lock';
import { countsAsConversion } from './counted-conversions';
import {
  applyBatch,
  leadPageKey,
  leadPagesOf,
  sessionsAndLeadsOf,
  type DayOfLead,
  type RawEvent,
} from './rollup-batch';
import { applySession, applyVideoRecord, recordMeta } from './rollup-core';
import {
  addDeltas,
  negated,
  pageMetaRow,
  type AggregateRow,
  type LeadPageState,
  type LeadState,
  summedDeltas,
  type SessionState,
} from './rollup-rows';
import { assembleFunnelNumbers, assemblePageNumbers } from './rollup-answers';

/**
 * What a batch reads before it runs: stored sessions (with their stored records, decision 40), leads (with their
 * account's time zone) and every lead–page state row of those leads. Ids asked for and not found are
 * remembered, so that nothing is read twice.
 */
export interface LoadedStates {
  sessions: Map<string, StoredSession>;
  sessionsAsked: Set<string>;
  leads: Map<string, StoredLead>;
  /** Leads whose row and lead–page state rows were read (found or not). */
  leadsAsked: Set<string>;
  /** By leadPageKey. */
  leadPages: Map<string, LeadPageState>;
}

/** Sessions and leads whose state rows the cache keeps, the least recently used going first. */
const CACHED_SESSIONS = 2000;
const CACHED_LEADS = 2000;

/** What the cache keeps of a lead: its stored row as the rollups read it (none: not found), its states. */
interface CachedLead {
  row: StoredLead | undefined;
  pages: LeadPageState[];
}

/**
 * Recently used entries in two generations: what is used goes into the young one, and when that holds
 * half the limit it becomes the old one and the old one's entries not used since are dropped. A hit in
 * the young generation, the usual case under load, is a single lookup: a strict least-recently-used
 * order cost a delete and an insert of the Map for every hit.
 */
function recentlyUsed<V>(limit: number) {
  let young = new Map<string, V>();
  let old = new Map<string, V>();
  const set = (key: string, value: V): void => {
    young.set(key, value);
    if (young.size >= limit / 2) {
      old = young;
      young = new Map();
    }
  };
  return {
    get(key: string): V | undefined {
      const value = young.get(key);
      if (value !== undefined) return value;
      const aging = old.get(key);
      if (aging !== undefined) {
        old.delete(key);
        set(key, aging);
      }
      return aging;
    },
    set(key: string, value: V): void {
      old.delete(key);
      set(key, value);
    },
    /** The entry kept for `key`, without making it recently used. */
    peek: (key: string): V | undefined => young.get(key) ?? old.get(key),
    clear(): void {
      young = new Map();
      old = new Map();
    },
  };
}

/**
 * The state rows of recent sessions (with what the rollups read of their stored row) and, for recent
 * leads, their row (funnel, creation, account time zone: none of which changes without a rebuild,
 * which empties the cache) and every lead–page state row, as committed.
 */
function createStateCache() {
  const sessions = recentlyUsed<StoredSession>(CACHED_SESSIONS);
  const leads = recentlyUsed<CachedLead>(CACHED_LEADS);
  let generation = 0;
  return {
    session: (id: string) => sessions.get(id),
    lead: (leadId: string) => leads.get(leadId),
    setSession: (session: StoredSession) => {
      sessions.set(session.id, session);
    },
    setLead: (leadId: string, lead: CachedLead) => {
      leads.set(leadId, lead);
    },
    /** Whether this very entry is the one kept (it came from the cache). */
    holds: (session: StoredSession) => sessions.peek(session.id) === session,
    holdsLead: (leadId: string) => leads.peek(leadId) !== undefined,
    generation: () => generation,
    clear: () => {
      generation += 1;
      sessions.clear();
      leads.clear();
    },
  };
}

/** Records read at a time when a page's meta is recomputed. */
const ERASE_PAGE = 2000;

/** Day numbers of each time zone, made once per process. */
const daysOfZones = new Map<string, DayOf>();
function daysOf(zone: string): DayOf {
  let dayOf = daysOfZones.get(zone);
  if (dayOf === undefined) {
    dayOf = dayOfZone(zone);
    daysOfZones.set(zone, dayOf);
  }
  return dayOf;
}

/**
 * A stored session's state as its stored records made it (decision 40): every stored record of a
 * stored session was counted when it was stored, in its batch's transaction, and a real end (not one
 * the sweep inferred) was counted with its batch. The order does not matter (decision 25); `fresh`
 * records are the running batch's own, which it counts itself.
 */
function derivedState(
  stored: StoredSession,
  dayOf: DayOf,
  fresh: ReadonlySet<string> | undefined,
): SessionState {
  const { id, leadId, funnelId, pageId, startAt } = stored;
  const endReason = stored.endInferred ? null : stored.endReason;
  // The lead–page state and the deltas made on the way are thrown away: only the session's is kept.
  const lead = { leadId, funnelId, entryDay: 0 };
  let { session, leadPage } = applySession(
    { lead, leadPage: undefined, session: undefined },
    { id, leadId, funnelId, pageId, startAt, endReason },
    dayOf,
  );
  for (const record of stored.records ?? []) {
    if (fresh?.has(record.id) === true) continue;
    ({ session, leadPage } = applyVideoRecord({ session, leadPage }, record));
  }
  return session;
}

/**
 * The rollups kept in the database (decision 25): a batch of new raw rows loads the state rows it
 * touches, runs the batch applier over them and writes what changed; answers assemble the aggregate
 * rows of one page or funnel. Every path that changes the rollups holds the rollup lock from its reads
 * to its commit (rollup-lock.ts), so a read sees every batch committed before it.
 */
export function createDatabaseRollups({
  db,
  analytics,
  cacheStates = false,
  acrossProcesses,
}: {
  db: Db;
  analytics: AnalyticsRepo;
  /** PostgreSQL: what a transaction takes before it reads state rows (rollup-lock.ts). */
  acrossProcesses?: CrossProcessLock;
  /**
   * Keep the state rows of recent sessions and leads in memory for the event writer's batches. On
   * SQLite this process is the only writer of them; on PostgreSQL a batch uses them only when the
   * write number it took under the lock follows its last one's (decision 31). Every write in a
   * transaction of its own (new leads, conversions, erasures, rebuilds) empties it.
   */
  cacheStates?: boolean;
}) {
  const cache = cacheStates ? createStateCache() : undefined;
  /** What the writer's batch planned last, for the cache once it is committed. */
  let staged: (() => void) | undefined;
  /** PostgreSQL: the write number of this process's last committed batch, as of which the cache holds. */
  let lastWrite: number | undefined;
  /** PostgreSQL: the writer's batch in progress, whose reads may come from the cache. */
  let batch: { trx: Kysely<Database>; write: number } | undefined;
  /** Whether a plan on `reader` is the writer's batch, which reads from the cache and stages for it. */
  const isWritersBatch = (reader: Kysely<Database>): boolean => reader === db || reader === batch?.trx;

  /**
   * Reads what is not read yet of these sessions and leads into `loaded` (a new one when not given),
   * the three reads side by side.
   */
  async function load(
    reader: Kysely<Database>,
    sessionIds: Iterable<string>,
    leadIds: Iterable<string>,
    loaded: LoadedStates = {
      sessions: new Map(),
      sessionsAsked: new Set(),
      leads: new Map(),
      leadsAsked: new Set(),
      leadPages: new Map(),
    },
  ): Promise<LoadedStates> {
    // The cache holds what is committed. Only the writer's batch reads it: on SQLite planned on the
    // database, on PostgreSQL in its transaction once its write number showed the cache current.
    const cached = isWritersBatch(reader) ? cache : undefined;
    const sessionsToRead = new Set<string>();
    for (const id of sessionIds) {
      if (loaded.sessionsAsked.has(id)) continue;
      const known = cached?.session(id);
      if (known === undefined) sessionsToRead.add(id);
      else {
        loaded.sessionsAsked.add(id);
        loaded.sessions.set(id, known);
      }
    }
    const leadsToRead = new Set<string>();
    const leadPagesToRead = new Set<string>();
    for (const id of leadIds) {
      if (loaded.leadsAsked.has(id)) continue;
      const known = cached?.lead(id);
      if (known === undefined) {
        leadsToRead.add(id);
        leadPagesToRead.add(id);
        continue;
      }
      loaded.leadsAsked.add(id);
      if (known.row !== undefined) loaded.leads.set(id, known.row);
      for (const state of known.pages) loaded.leadPages.set(leadPageKey(state.leadId, state.pageId), state);
    }
    const [sessions, leads, leadPages] = await Promise.all([
      analytics.storedSessions(reader, sessionsToRead),
      analytics.leads(reader, leadsToRead),
      analytics.leadPages(reader, leadPagesToRead),
    ]);
    for (const id of sessionsToRead) loaded.sessionsAsked.add(id);
    for (const session of sessions) loaded.sessions.set(session.id, session);
    for (const id of leadsToRead) loaded.leadsAsked.add(id);
    for (const lead of leads) loaded.leads.set(lead.id, lead);
    for (const state of leadPages) loaded.leadPages.set(leadPageKey(state.leadId, state.pageId), state);
    return loaded;
  }

  /**
   * The statements that keep the rollups of new rows (each id once, a session before its events),
   * over the state rows in `loaded`, reading on `reader` whatever they lack. `dayOfLead` defaults to
   * each lead's account time zone.
   */
  async function planLoaded(
    reader: Kysely<Database>,
    given: readonly RawEvent[],
    loaded: LoadedStates,
    dayOfLead?: DayOfLead,
    /**
     * The writer's batch: its new sessions as stored, the real ends it sets, and the ids of the new
     * video records it stored already (PostgreSQL's inserts go first), which a derived state leaves out.
     */
    written?: {
      sessions: readonly StoredSession[];
      ends: ReadonlyMap<string, number>;
      fresh?: ReadonlySet<string>;
    },
    /** Where the aggregate deltas go instead of the statements, summed by key (a rebuild's). */
    summed?: Map<string, AggregateRow>,
  ): Promise<StatementText[]> {
    // A plan in a transaction of its own never stages (the cache is emptied for it instead).
    const forWriter = isWritersBatch(reader);
    if (forWriter) staged = undefined;
    if (given.length === 0) return [];
    const named = sessionsAndLeadsOf(given).sessionIds;
    await load(reader, named, [], loaded);
    // The batch's own new sessions: every other stored session was counted when it was stored.
    const startedHere = new Set(given.flatMap((event) => (event.kind === 'session' ? [event.row.id] : [])));
    // Events of a session that is not stored (nor started here) count nowhere: its page was deleted.
    const events = given.filter((event) => {
      const sessionId =
        event.kind === 'videoRecord'
          ? event.row.pageSessionId
          : event.kind === 'action'
            ? event.row.pageSessionId
            : event.kind === 'sessionEnd'
              ? event.sessionId
              : null;
      return sessionId === null || startedHere.has(sessionId) || loaded.sessions.has(sessionId);
    });
    const zoneDays: DayOfLead = (leadId) => daysOf(loaded.leads.get(leadId)?.timeZone ?? 'UTC');
    const dayOf = dayOfLead ?? zoneDays;
    const sessions = new Map<string, SessionState>();
    const toDerive: StoredSession[] = [];
    for (const id of named) {
      const stored = loaded.sessions.get(id);
      if (stored === undefined) continue;
      if (stored.state !== undefined) sessions.set(id, stored.state);
      else if (!startedHere.has(id)) toDerive.push(stored);
    }
    if (toDerive.length > 0) {
      // A stored session's state is what its stored records made of it (decision 40): its day
      // needs its lead's time zone.
      await load(
        reader,
        [],
        toDerive.map((stored) => stored.leadId),
        loaded,
      );
      for (const stored of toDerive) {
        const state = derivedState(stored, dayOf(stored.leadId), written?.fresh);
        sessions.set(stored.id, state);
        loaded.sessions.set(stored.id, { ...stored, state, records: undefined });
      }
    }
    const { leadIds } = sessionsAndLeadsOf(events);
    const pairs = leadPagesOf(events, sessions);
    const leadsToLoad = new Set(leadIds);
    for (const pair of pairs) leadsToLoad.add(pair.leadId);
    await load(reader, [], leadsToLoad, loaded);
    // A lead arriving in this batch is new to the rollups even though its row is stored already.
    const arriving = new Set(events.flatMap((event) => (event.kind === 'lead' ? [event.row.id] : [])));
    const leads = new Map<string, LeadState>();
    for (const id of leadIds) {
      const lead = loaded.leads.get(id);
      if (lead === undefined || arriving.has(id)) continue;
      leads.set(id, { leadId: id, funnelId: lead.funnelId, entryDay: dayOf(id)(lead.createdAt) });
    }
    const leadPages = new Map<string, LeadPageState>();
    for (const { leadId, pageId } of pairs) {
      const key = leadPageKey(leadId, pageId);
      const state = loaded.leadPages.get(key);
      if (state !== undefined) leadPages.set(key, state);
    }
    const outcome = applyBatch(events, { leads, sessions, leadPages }, dayOf);
    if (cache !== undefined && forWriter && written !== undefined) {
      const generation = cache.generation();
      staged = () => {
        if (cache.generation() !== generation) return;
        // What the cache gave and the batch did not change stays as it is. Loops rather than spreads
        // of arrays that are sometimes empty (rollup-ingest.ts's planFor says why).
        const states = new Map<string, SessionState>();
        for (const state of outcome.sessions) states.set(state.sessionId, state);
        const keep = (stored: StoredSession): void => {
          const endAt = written.ends.get(stored.id);
          const state = states.get(stored.id) ?? stored.state;
          // A session read but not needed (a retried record's) was not derived: it is read again.
          if (state === undefined) return;
          if (endAt === undefined && state === stored.state && cache.holds(stored)) return;
          cache.setSession({
            id: stored.id,
            leadId: stored.leadId,
            funnelId: stored.funnelId,
            pageId: stored.pageId,
            startAt: stored.startAt,
            endReason: stored.endReason,
            endAt: endAt ?? stored.endAt,
            endInferred: endAt === undefined ? stored.endInferred : false,
            state,
          });
        };
        for (const stored of loaded.sessions.values()) keep(stored);
        for (const stored of written.sessions) keep(stored);
        const changed = new Set<string>();
        for (const state of outcome.leadPages) changed.add(state.leadId);
        const byLead = new Map<string, Map<string, LeadPageState>>();
        for (const id of loaded.leadsAsked)
          if (changed.has(id) || !cache.holdsLead(id)) byLead.set(id, new Map());
        for (const state of loaded.leadPages.values()) byLead.get(state.leadId)?.set(state.pageId, state);
        for (const state of outcome.leadPages) byLead.get(state.leadId)?.set(state.pageId, state);
        for (const [leadId, pages] of byLead)
          cache.setLead(leadId, { row: loaded.leads.get(leadId), pages: Array.from(pages.values()) });
      };
    }
    if (summed === undefined) return analytics.writeStatements(outcome);
    addDeltas(summed, outcome.deltas);
    return analytics.writeStatements({ ...outcome, deltas: [] });
  }

  /** The statements that keep the rollups of new rows, reading the state rows they touch on `reader`. */
  async function plan(
    reader: Kysely<Database>,
    given: readonly RawEvent[],
    dayOfLead?: DayOfLead,
    summed?: Map<string, AggregateRow>,
  ): Promise<StatementText[]> {
    if (given.length === 0) return [];
    const { sessionIds, leadIds } = sessionsAndLeadsOf(given);
    return planLoaded(reader, given, await load(reader, sessionIds, leadIds), dayOfLead, undefined, summed);
  }

  /**
   * Applies new rows inside `trx`. With `summed`, their aggregate deltas are added to it instead of
   * written, for `writeSummed` to write once: a rebuild's batches all add to the same few aggregate
   * rows, and on PostgreSQL each write of a row in one transaction leaves another version of it behind
   * (decision 32).
   */
  async function apply(
    trx: Kysely<Database>,
    events: readonly RawEvent[],
    dayOfLead?: DayOfLead,
    summed?: Map<string, AggregateRow>,
  ): Promise<void> {
    cache?.clear();
    await acrossProcesses?.(trx);
    await runStatements(trx, await plan(trx, events, dayOfLead, summed));
  }

  /** Writes the deltas `apply` summed, and empties the sum. */
  async function writeSummed(trx: Kysely<Database>, summed: Map<string, AggregateRow>): Promise<void> {
    const deltas = summedDeltas(summed);
    summed.clear();
    await runStatements(trx, analytics.writeStatements({ leadPages: [], deltas }));
  }

  /**
   * A lead's erasure, inside the transaction that deletes it and before its rows go, under the rollup
   * lock. Its raw rows replayed from nothing give exactly what it added to every aggregate row: its
   * state rows are its own, and the sums do not depend on the order rows come in (decision 25). Those
   * are taken away, and rows left at zero deleted. A page's meta holds largest values, which cannot be
   * taken away: where the lead's reach them, they are recomputed from the other leads' records. Its
   * state rows go with it by cascade. Afterwards every answer is what a rebuild without it gives.
   */
  async function erase(trx: Kysely<Database>, leadId: string): Promise<void> {
    cache?.clear();
    await acrossProcesses?.(trx);
    const raw = await analytics.leadRaw(trx, leadId);
    if (raw.lead === undefined) return;
    const { lead } = raw;
    const ownSessions = new Set(raw.sessions.map((session) => session.id));
    const events: RawEvent[] = [
      { kind: 'lead', row: { id: lead.id, funnelId: lead.funnelId, createdAt: lead.createdAt } },
      ...raw.sessions.map((row): RawEvent => ({ kind: 'session', row })),
      ...raw.videoRecords.map((row): RawEvent => ({ kind: 'videoRecord', row })),
      // An action or a conversion is the lead's own; a record or an action counts on its session.
      ...raw.actions
        .filter((row) => row.pageSessionId === null || ownSessions.has(row.pageSessionId))
        .map((row): RawEvent => ({ kind: 'action', row })),
      // Only the conversions analytics counts were added (a page's VIDEO_VIEWED was not).
      ...raw.conversions.filter(countsAsConversion).map((row): RawEvent => ({ kind: 'conversion', row })),
    ];
    const dayOf = daysOf(lead.timeZone);
    const added = applyBatch(
      events,
      { leads: new Map(), sessions: new Map(), leadPages: new Map() },
      () => dayOf,
    ).deltas;
    const taken = added.flatMap((row) => (row.table === 'pageMeta' ? [] : [negated(row)]));
    await runStatements(trx, analytics.writeStatements({ leadPages: [], deltas: taken }));
    const pageIds = new Set<string>();
    const funnelIds = new Set<string>();
    for (const row of taken) {
      if ('pageId' in row) pageIds.add(row.pageId);
      if ('funnelId' in row) funnelIds.add(row.funnelId);
    }
    await analytics.deleteZeroRows(trx, [...pageIds], [...funnelIds]);

    const own = added.flatMap((row) => (row.table === 'pageMeta' ? [row] : []));
    const stored = await analytics.pageMetas(
      trx,
      own.map((row) => row.pageId),
    );
    for (const mine of own) {
      const meta = stored.get(mine.pageId);
      if (meta === undefined) continue;
      if (mine.maxDuration < meta.maxDuration && mine.maxPlayedSecond < meta.maxPlayedSecond) continue;
      // The others' largest values, read until they reach the stored ones (they cannot pass them).
      let maxDuration = 0;
      let maxPlayedSecond = -1;
      let after = '';
      for (;;) {
        const page = await analytics.pageRecordsBut(trx, mine.pageId, leadId, after, ERASE_PAGE);
        for (const record of page.rows) {
          const its = recordMeta(record);
          maxDuration = Math.max(maxDuration, its.maxDuration);
          maxPlayedSecond = Math.max(maxPlayedSecond, its.maxPlayedSecond);
        }
        const reached = maxDuration >= meta.maxDuration && maxPlayedSecond >= meta.maxPlayedSecond;
        if (reached || page.last === undefined || page.rows.length < ERASE_PAGE) break;
        after = page.last;
      }
      await analytics.setPageMeta(trx, pageMetaRow(mine.pageId, maxDuration, maxPlayedSecond));
    }
  }

  return {
    load,
    erase,
    /** Takes the lock of several processes in `trx` (PostgreSQL; nothing on SQLite). */
    holdAcrossProcesses: async (trx: Kysely<Database>): Promise<void> => {
      await acrossProcesses?.(trx);
    },
    /**
     * Takes the lock of several processes in the writer's batch `trx` (PostgreSQL; nothing on
     * SQLite), and keeps the cache only if no other transaction changed the rollups since this
     * process's last batch: its write number follows that batch's.
     */
    async holdForBatch(trx: Kysely<Database>): Promise<void> {
      const write = await acrossProcesses?.(trx);
      if (write === undefined) return;
      if (lastWrite === undefined || write !== lastWrite + 1) cache?.clear();
      batch = { trx, write };
    },
    /** The writer's batch planned last is committed: the cache takes its state rows. */
    committed(): void {
      staged?.();
      staged = undefined;
      lastWrite = batch?.write;
      batch = undefined;
    },
    /**
     * The writer's batch planned last was undone before it changed anything (SQLite's guarded batch,
     * decision 36): the cache stays as committed, and nothing of that plan goes into it.
     */
    discarded(): void {
      staged = undefined;
    },
    /** The writer's batch planned last failed: whatever the cache holds may be wrong now. */
    failed(): void {
      staged = undefined;
      cache?.clear();
      lastWrite = undefined;
      batch = undefined;
    },
    planLoaded,
    plan,
    apply,
    writeSummed,
    /** Applies new rows in a transaction of their own. */
    ingest: (events: readonly RawEvent[], dayOfLead?: DayOfLead): Promise<void> =>
      db.transaction().execute((trx) => apply(trx, events, dayOfLead)),
    async pageNumbers(page: PageInput, range: DayRange): Promise<PageNumbers> {
      return assemblePageNumbers({ page, range, ...(await analytics.pageRows(db, page.id, range)) });
    },
    async funnelNumbers(
      funnelId: string,
      pages: readonly PageInput[],
      range: DayRange,
    ): Promise<FunnelNumbers> {
      const rows = await analytics.funnelRows(
        db,
        funnelId,
        pages.map((page) => page.id),
        range,
      );
      return assembleFunnelNumbers({ funnelId, pages, range, ...rows });
    },
  };
}
export type DatabaseRollups = ReturnType<typeof createDatabaseRollups>;
