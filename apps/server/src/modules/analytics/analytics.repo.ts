import { videoRecordDetails } from './video-record-details';
import { sql, type Kysely } from 'kysely';
import { AccountSettings } from '@embudo/contracts';
import { z } from 'zod';
import type { Dialect } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { prepared, reusableRead, sqlName, type StatementText } from '../../db/reusable-query';
import { inJsonList } from '../../db/batched-read';
import { readJson } from '../../lib/json';
import type {
  ActionInput,
  ConversionInput,
  LeadInput,
  SessionInput,
  VideoRecordInput,
} from './analytics-types';
import { readFunnelRows } from './funnel-rows.query';
import { readPageRows } from './page-rows.query';
import {
  pageMetaRow,
  type PageMetaRow,
  type AggregateRow,
  type LeadPageState,
  type SessionState,
} from './rollup-rows';

/** The database or a transaction of it. */
type Executor = Kysely<Database>;

/** Set by migration 0010 when data was stored before the rollups existed. */
const REBUILD_KEY = 'analytics_rebuild';

/** What a batch writes: its lead–page state rows and aggregate deltas (a session's state is derived, decision 40). */
export interface RollupChanges {
  leadPages: readonly LeadPageState[];
  deltas: readonly AggregateRow[];
}

/** A page of raw rows of one table, read in key order after `after`. */
export interface RawPage<Row> {
  rows: Row[];
  last: string | undefined;
}

const Seconds = z.array(z.tuple([z.number(), z.number()]).readonly());
const LeadPageStateRow = z.object({
  leadId: z.string(),
  pageId: z.string(),
  leadFunnelId: z.string(),
  entryDay: z.number().int(),
  playedByDay: z.array(z.object({ day: z.number().int(), played: Seconds })),
  firstPlayDay: z.number().int().nullable(),
  furthestSecond: z.number().int(),
  clickDays: z.array(z.number().int()),
  reached: z.boolean(),
  completed: z.boolean(),
  clicked: z.boolean(),
  converted: z.boolean(),
}) satisfies z.ZodType<LeadPageState>;

const byTable = <Table extends AggregateRow['table']>(rows: readonly AggregateRow[], table: Table) =>
  rows.filter((row): row is Extract<AggregateRow, { table: Table }> => row.table === table);

const quoted = (name: string): string => `"${sqlName(name)}"`;

/** An aggregate table whose rows add up: its key columns and the counts a delta adds to. */
interface AddedSpec {
  table: keyof Database & `analytics${string}`;
  keys: readonly string[];
  counts: readonly string[];
}
type AddedKind = Exclude<AggregateRow['table'], 'pageMeta'>;

/** Where each kind of aggregate row goes (`pageMeta` takes the larger value instead: below). */
const ADDED: Record<AddedKind, AddedSpec> = {
  reach: { table: 'analyticsReach', keys: ['pageId', 'day', 'prevDay', 'second'], counts: ['delta'] },
  views: { table: 'analyticsViews', keys: ['pageId', 'day', 'second'], counts: ['delta'] },
  pageDays: {
    table: 'analyticsPageDays',
    keys: ['pageId', 'day'],
    counts: ['sessions', 'plays', 'secondsPlayed', 'clicks', 'conversions'],
  },
  pageLeads: { table: 'analyticsPageLeads', keys: ['pageId', 'kind', 'day', 'prevDay'], counts: ['leads'] },
  furthest: {
    table: 'analyticsFurthest',
    keys: ['pageId', 'firstPlayDay', 'furthestSecond'],
    counts: ['leads', 'converted'],
  },
  steps: {
    table: 'analyticsSteps',
    keys: ['funnelId', 'entryDay', 'pageId'],
    counts: ['reached', 'completed', 'clicked', 'converted'],
  },
  funnelDays: { table: 'analyticsFunnelDays', keys: ['funnelId', 'day'], counts: ['entered', 'conversions'] },
};

/** Each adding table's write: every count added to the stored one. */
const ADDED_WRITES = new Map<AddedKind, TableWrite>(
  (Object.keys(ADDED) as AddedKind[]).map((kind) => {
    const spec = ADDED[kind];
    const write: TableWrite = {
      table: spec.table,
      columns: [...spec.keys, ...spec.counts],
      keys: spec.keys,
      set: spec.counts.map((count) => [
        count,
        `${quoted(spec.table)}.${quoted(count)} + excluded.${quoted(count)}`,
      ]),
    };
    return [kind, write];
  }),
);

const LEAD_PAGES_WRITE: TableWrite = {
  table: 'analyticsLeadPages',
  columns: ['leadId', 'pageId', 'state'],
  keys: ['leadId', 'pageId'],
  set: [['state', 'excluded."state"']],
};
/** A page's meta takes the larger of each value. */
const pageMetaWrite = (largest: string): TableWrite => ({
  table: 'analyticsPageMeta',
  columns: ['pageId', 'maxDuration', 'maxPlayedSecond'],
  keys: ['pageId'],
  set: ['maxDuration', 'maxPlayedSecond'].map((column) => [
    column,
    `${largest}(${quoted('analyticsPageMeta')}.${quoted(column)}, excluded.${quoted(column)})`,
  ]),
});
const PAGE_META_WRITES = { sqlite: pageMetaWrite('max'), postgres: pageMetaWrite('greatest') };
/** A page's version, raised by one for every batch that changes its aggregate rows. */
const PAGE_VERSIONS_WRITE: TableWrite = {
  table: 'analyticsPageVersions',
  columns: ['pageId', 'version'],
  keys: ['pageId'],
  set: [['version', `${quoted('analyticsPageVersions')}.${quoted('version')} + 1`]],
};

/** How the rows of one rollup table are written: insert, or on a conflict of their key, update. */
interface TableWrite {
  /** The schema's names (camelCase, as the rest of the server names them), snake-cased in the SQL. */
  table: string;
  columns: readonly string[];
  keys: readonly string[];
  /** Each updated column's new value, in SQL (the stored row is the table's, the new one `excluded`). */
  set: readonly (readonly [column: string, value: string])[];
}

/** Text columns; every other column of these tables holds a number. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set([
  'sessionId',
  'pageId',
  'leadId',
  'funnelId',
  'kind',
  'state',
]);

function insertHead(spec: TableWrite): string {
  return `insert into ${quoted(spec.table)} (${spec.columns.map(quoted).join(', ')}) `;
}

function conflictTail(spec: TableWrite): string {
  return (
    ` on conflict (${spec.keys.map(quoted).join(', ')}) do update set ` +
    spec.set.map(([column, value]) => `${quoted(column)} = ${value}`).join(', ')
  );
}

/** One row's upsert (SQLite): the same text every time, so the write thread prepares it once. */
const singleRowTexts = new Map<TableWrite, string>();
function singleRowText(spec: TableWrite): string {
  let text = singleRowTexts.get(spec);
  if (text === undefined) {
    text = `${insertHead(spec)}values (${spec.columns.map(() => '?').join(', ')})${conflictTail(spec)}`;
    singleRowTexts.set(spec, text);
  }
  return text;
}

/**
 * Every table's rows in one statement (PostgreSQL): one round trip for the whole batch's rollups, each
 * table's rows one JSON parameter (an array of arrays), inserted by a data-modifying WITH of its own.
 * A named statement (reusable-query.ts): its text depends only on which tables a batch writes, a few
 * dozen at most, and its plan reads no table's statistics (rows come from the parameters, conflicts
 * are found through the key's index), so the plan made once holds as the tables grow.
 */
function combinedUpsert(
  writes: readonly { spec: TableWrite; rows: readonly (readonly unknown[])[] }[],
): StatementText {
  const parameters: string[] = [];
  let tables = '';
  for (const { spec, rows } of writes) {
    parameters.push(JSON.stringify(rows));
    tables += `${spec.table}\u0000`;
  }
  // The text is made once per set of tables: building and hashing it anew cost each batch about a
  // microsecond an event (docs/performance.md).
  let sql = combinedTexts.get(tables);
  if (sql === undefined) {
    const parts = writes.map(({ spec }, index) => {
      // A state row's JSON is an object inside the parameter's, not a string: one encoding, not two.
      // Read as `json`, which keeps the text as sent, it is stored as JSON.stringify wrote it.
      const holdsState = spec.columns.includes('state');
      const values = spec.columns.map((column, at) => {
        if (column === 'state') return `cast(e->${at} as text)`;
        const type = TEXT_COLUMNS.has(column)
          ? 'text'
          : column === 'maxDuration'
            ? 'double precision'
            : 'bigint';
        return `cast(e->>${at} as ${type})`;
      });
      const json = holdsState ? 'json' : 'jsonb';
      return (
        `w${index} as (${insertHead(spec)}select ${values.join(', ')} ` +
        `from ${json}_array_elements(cast($${index + 1} as ${json})) as e${conflictTail(spec)})`
      );
    });
    sql = prepared(`with ${parts.join(', ')} select 1`);
    combinedTexts.set(tables, sql);
  }
  return { sql, parameters };
}
/** combinedUpsert's statements, by the tables they write (each table has one TableWrite per dialect). */
const combinedTexts = new Map<string, string>();

/** A page session's columns as the rollups take it (`SessionInput`). */
const SESSION_INPUT = [
  'pageSessions.id',
  'pageSessions.leadId',
  'pageSessions.funnelId',
  'pageSessions.pageId',
  'pageSessions.startAt',
  'pageSessions.endReason',
] as const;

/** A video record's columns as the rollups take it (`VideoRecordInput`, its details still as stored). */
const RECORD_INPUT = [
  'videoRecords.id',
  'videoRecords.pageSessionId',
  'videoRecords.leadId',
  'videoRecords.startViewTime',
  'videoRecords.endViewTime',
  'videoRecords.startTimeVideo',
  'videoRecords.endTimeVideo',
  'videoRecords.details',
] as const;

/** Ids of a batch's raw rows that each table holds already. */
export interface StoredIds {
  sessions: ReadonlySet<string>;
  records: ReadonlySet<string>;
  actions: ReadonlySet<string>;
}

/** A stored page session as the rollups take it, with its end and its state row when they know it. */
export interface StoredSession extends SessionInput {
  endAt: number | null;
  endInferred: boolean;
  /** Derived from `records` when a batch first needs it (decision 40), then kept in memory. */
  state: SessionState | undefined;
  /** The session's stored video records, as read; none once its state is derived. */
  records?: readonly VideoRecordInput[];
}

/** Some leads' raw rows as the rollups take them (a rebuild's page of leads, an erased lead). */
export interface LeadsRaw {
  sessions: SessionInput[];
  videoRecords: VideoRecordInput[];
  actions: ActionInput[];
  conversions: ConversionInput[];
}

/** A lead as the rollups take it, with its account's time zone. */
export interface StoredLead extends LeadInput {
  timeZone: string;
}

/** Account settings seen lately, by their text: reading one checks its time zone with Intl. */
const zonesBySettings = new Map<string, string>();
function timeZoneOf(settings: string): string {
  let zone = zonesBySettings.get(settings);
  if (zone === undefined) {
    zone = readJson(AccountSettings, settings).timeZone;
    if (zonesBySettings.size >= 1000) zonesBySettings.clear();
    zonesBySettings.set(settings, zone);
  }
  return zone;
}

/** The state-row reads of a batch, compiled once, run on the database or a batch's transaction. */
function compileReads(dialect: Dialect) {
  const list = (column: string, json: never) => inJsonList(dialect, column, json);
  // Lookups of lists of keys in growing tables are planned on every run (reusable-query.ts).
  const eachRun = { planEachRun: true };
  return {
    existing: reusableRead(
      ['sessions', 'records', 'actions'],
      (db, v) =>
        db
          .selectFrom('pageSessions')
          .select([sql<string>`'s'`.as('kind'), 'id'])
          .where(list('id', v.sessions))
          .unionAll(
            db
              .selectFrom('videoRecords')
              .select([sql<string>`'v'`.as('kind'), 'id'])
              .where(list('id', v.records)),
          )
          .unionAll(
            db
              .selectFrom('actions')
              .select([sql<string>`'a'`.as('kind'), 'id'])
              .where(list('id', v.actions)),
          ),
      eachRun,
    ),
    sessions: reusableRead(
      ['ids'],
      (db, v) =>
        db
          .selectFrom('pageSessions')
          // A session of a deleted page counts nowhere: its page's rollups went with the page.
          .innerJoin('pages', 'pages.id', 'pageSessions.pageId')
          .select([...SESSION_INPUT, 'pageSessions.endAt', 'pageSessions.endInferred'])
          .where(list('pageSessions.id', v.ids)),
      eachRun,
    ),
    // Through `video_records_session`: what a session's state is derived from (decision 40).
    sessionRecords: reusableRead(
      ['ids'],
      (db, v) =>
        db.selectFrom('videoRecords').select(RECORD_INPUT).where(list('videoRecords.pageSessionId', v.ids)),
      eachRun,
    ),
    leads: reusableRead(
      ['ids'],
      (db, v) =>
        db
          .selectFrom('leads')
          .innerJoin('accounts', 'accounts.id', 'leads.accountId')
          .select(['leads.id', 'leads.funnelId', 'leads.createdAt', 'accounts.settings'])
          .where(list('leads.id', v.ids)),
      eachRun,
    ),
    leadPages: reusableRead(
      ['ids'],
      (db, v) => db.selectFrom('analyticsLeadPages').select('state').where(list('leadId', v.ids)),
      eachRun,
    ),
  };
}

/**
 * The analytics rollups in the database (decision 25, migration 0010): state rows as JSON read through
 * their schemas, aggregate rows written as deltas that add up (or, for a page's meta, take the larger),
 * and the rows a page's or a funnel's answer reads.
 */
export function createAnalyticsRepo(dialect: Dialect) {
  /**
   * A state row's `state` as a statement takes it: its JSON text on SQLite; on PostgreSQL the object
   * itself, written into the combined statement's JSON once (combinedUpsert).
   */
  const stateValue = (state: LeadPageState): unknown =>
    dialect === 'postgres' ? state : JSON.stringify(state);

  /**
   * The statements that write state rows (whole) and add aggregate deltas to their rows: on SQLite one
   * per row, each text prepared once by the write thread; on PostgreSQL one for everything.
   */
  function writeStatements(outcome: RollupChanges): StatementText[] {
    const writes: { spec: TableWrite; rows: (readonly unknown[])[] }[] = [];
    if (outcome.leadPages.length > 0)
      writes.push({
        spec: LEAD_PAGES_WRITE,
        rows: outcome.leadPages.map((s) => [s.leadId, s.pageId, stateValue(s)]),
      });
    const byKind = new Map<AggregateRow['table'], AggregateRow[]>();
    for (const row of outcome.deltas) {
      const rows = byKind.get(row.table);
      if (rows === undefined) byKind.set(row.table, [row]);
      else rows.push(row);
    }
    for (const [kind, spec] of ADDED_WRITES) {
      const rows = byKind.get(kind);
      if (rows === undefined) continue;
      writes.push({
        spec,
        rows: rows.map((row) => {
          const fields = row as unknown as Record<string, string | number | undefined>;
          return spec.columns.map((column) => fields[column] ?? 0);
        }),
      });
    }
    const metas = byTable(byKind.get('pageMeta') ?? [], 'pageMeta');
    if (metas.length > 0)
      writes.push({
        spec: PAGE_META_WRITES[dialect],
        rows: metas.map((row) => [row.pageId, row.maxDuration, row.maxPlayedSecond]),
      });
    // Every page whose rows change gets a new version in the same transaction: a kept answer of the
    // page is current while its version is (`page-answers.ts`).
    const pages = new Set<string>();
    for (const row of outcome.deltas) if ('pageId' in row) pages.add(row.pageId);
    if (pages.size > 0) writes.push({ spec: PAGE_VERSIONS_WRITE, rows: [...pages].map((id) => [id, 1]) });
    if (writes.length === 0) return [];
    if (dialect === 'postgres') return [combinedUpsert(writes)];
    return writes.flatMap(({ spec, rows }) => {
      const sql = singleRowText(spec);
      return rows.map((parameters) => ({ sql, parameters }));
    });
  }

  /** The reads, compiled once, each run on the handle given (the database or a transaction). */
  const reads = compileReads(dialect);
  const json = (ids: Iterable<string>): string => JSON.stringify([...ids]);

  const repo = {
    /** Which of these ids each raw table holds already (a retried event is stored once). */
    async existingIds(
      db: Executor,
      ids: { sessions: readonly string[]; records: readonly string[]; actions: readonly string[] },
    ): Promise<StoredIds> {
      const found = { sessions: new Set<string>(), records: new Set<string>(), actions: new Set<string>() };
      if (ids.sessions.length + ids.records.length + ids.actions.length === 0) return found;
      const rows = await reads.existing(db, {
        sessions: json(ids.sessions),
        records: json(ids.records),
        actions: json(ids.actions),
      });
      for (const row of rows)
        (row.kind === 's' ? found.sessions : row.kind === 'v' ? found.records : found.actions).add(row.id);
      return found;
    },

    /**
     * Stored page sessions as the rollups take them, each with its stored video records, from which
     * its state is derived (decision 40).
     */
    async storedSessions(db: Executor, ids: Iterable<string>): Promise<StoredSession[]> {
      const text = json(ids);
      if (text === '[]') return [];
      const [sessions, records] = await Promise.all([
        reads.sessions(db, { ids: text }),
        reads.sessionRecords(db, { ids: text }),
      ]);
      const bySession = new Map<string, VideoRecordInput[]>();
      for (const { details, ...row } of records) {
        const record = { ...row, ...videoRecordDetails(details) };
        const list = bySession.get(row.pageSessionId);
        if (list === undefined) bySession.set(row.pageSessionId, [record]);
        else list.push(record);
      }
      return sessions.map(({ endInferred, ...row }) => ({
        ...row,
        endInferred: endInferred === 1,
        state: undefined,
        records: bySession.get(row.id) ?? [],
      }));
    },

    /** Stored leads as the rollups take them, with their account's time zone (UTC when it names none). */
    async leads(db: Executor, ids: Iterable<string>): Promise<StoredLead[]> {
      const text = json(ids);
      if (text === '[]') return [];
      return (await reads.leads(db, { ids: text })).map(({ settings, ...lead }) => ({
        ...lead,
        timeZone: timeZoneOf(settings),
      }));
    },

    /** Every lead–page state row of these leads. */
    async leadPages(db: Executor, leadIds: Iterable<string>): Promise<LeadPageState[]> {
      const text = json(leadIds);
      if (text === '[]') return [];
      return (await reads.leadPages(db, { ids: text })).map((row) => readJson(LeadPageStateRow, row.state));
    },

    writeStatements,

    /** One lead's raw rows as the rollups take them (what it added to them), with its time zone. */
    async leadRaw(db: Executor, leadId: string): Promise<{ lead: StoredLead | undefined } & LeadsRaw> {
      const [lead] = await repo.leads(db, [leadId]);
      return { lead, ...(await repo.raw.ofLeads(db, [leadId])) };
    },

    /** Pages' meta rows, by page. */
    async pageMetas(db: Executor, pageIds: readonly string[]): Promise<Map<string, PageMetaRow>> {
      if (pageIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('analyticsPageMeta')
        .selectAll()
        .where('pageId', 'in', [...pageIds])
        .execute();
      return new Map(
        rows.map((row) => [row.pageId, pageMetaRow(row.pageId, row.maxDuration, row.maxPlayedSecond)]),
      );
    },

    /**
     * A page's video records but a lead's, `limit` at a time after the id `after`: what a page's meta
     * is recomputed from when that lead is erased.
     */
    async pageRecordsBut(
      db: Executor,
      pageId: string,
      leadId: string,
      after: string,
      limit: number,
    ): Promise<
      RawPage<Pick<VideoRecordInput, 'startTimeVideo' | 'endTimeVideo' | 'state' | 'videoDuration'>>
    > {
      const rows = await db
        .selectFrom('videoRecords')
        .innerJoin('pageSessions', 'pageSessions.id', 'videoRecords.pageSessionId')
        .select([
          'videoRecords.id',
          'videoRecords.startTimeVideo',
          'videoRecords.endTimeVideo',
          'videoRecords.details',
        ])
        .where('pageSessions.pageId', '=', pageId)
        .where('videoRecords.leadId', '<>', leadId)
        .where('videoRecords.id', '>', after)
        .orderBy('videoRecords.id')
        .limit(limit)
        .execute();
      return {
        rows: rows.map(({ details, startTimeVideo, endTimeVideo }) => ({
          startTimeVideo,
          endTimeVideo,
          ...videoRecordDetails(details),
        })),
        last: rows.at(-1)?.id,
      };
    },

    /** Sets a page's meta (after an erasure: it may only go down, which the upserts never do). */
    async setPageMeta(db: Executor, row: PageMetaRow): Promise<void> {
      await db
        .updateTable('analyticsPageMeta')
        .set({ maxDuration: row.maxDuration, maxPlayedSecond: row.maxPlayedSecond })
        .where('pageId', '=', row.pageId)
        .execute();
    },

    /** Deletes the aggregate rows of these pages and funnels whose every count is 0 (after an erasure). */
    async deleteZeroRows(
      db: Executor,
      pageIds: readonly string[],
      funnelIds: readonly string[],
    ): Promise<void> {
      for (const spec of Object.values(ADDED)) {
        const owners = spec.keys.includes('pageId') ? pageIds : funnelIds;
        const owner = spec.keys.includes('pageId') ? 'pageId' : 'funnelId';
        if (owners.length === 0) continue;
        // A table chosen at run time is beyond Kysely's types: the spec's names are checked by the tests.
        let query = (db as unknown as Kysely<Record<string, Record<string, string | number>>>)
          .deleteFrom(spec.table)
          .where(owner, 'in', [...owners]);
        for (const count of spec.counts) query = query.where(count, '=', 0);
        await query.execute();
      }
    },

    /**
     * An account's raw rows as the rollups take them, a page of leads at a time: what a rebuild replays.
     * A lead's rows never touch another lead's state rows, so each page of leads is replayed whole and
     * each state row written once (decision 32).
     */
    raw: {
      /** `limit` of the account's leads after the id `after` (keyset). */
      leads: async (
        db: Executor,
        accountId: string,
        after: string,
        limit: number,
      ): Promise<RawPage<LeadInput>> => {
        const rows = await db
          .selectFrom('leads')
          .select(['id', 'funnelId', 'createdAt'])
          .where('accountId', '=', accountId)
          .where('id', '>', after)
          .orderBy('id')
          .limit(limit)
          .execute();
        return { rows, last: rows.at(-1)?.id };
      },
      /**
       * These leads' sessions, records, actions and conversions, each in id order. Nothing of a deleted
       * page (its rollups went with it), except a conversion, which still counts for its funnel as one
       * of no page. A record or an action is always its session's lead's (tracking checks the token).
       */
      ofLeads: async (db: Executor, leadIds: readonly string[]): Promise<LeadsRaw> => {
        if (leadIds.length === 0) return { sessions: [], videoRecords: [], actions: [], conversions: [] };
        const ids = [...leadIds];
        const sessions = await db
          .selectFrom('pageSessions')
          .innerJoin('pages', 'pages.id', 'pageSessions.pageId')
          .select(SESSION_INPUT)
          .where('pageSessions.leadId', 'in', ids)
          .orderBy('pageSessions.id')
          .execute();
        const records = await db
          .selectFrom('videoRecords')
          .innerJoin('pageSessions', 'pageSessions.id', 'videoRecords.pageSessionId')
          .innerJoin('pages', 'pages.id', 'pageSessions.pageId')
          .select(RECORD_INPUT)
          .where('videoRecords.leadId', 'in', ids)
          .orderBy('videoRecords.id')
          .execute();
        const actions = await db
          .selectFrom('actions')
          .leftJoin('pageSessions', 'pageSessions.id', 'actions.pageSessionId')
          .leftJoin('pages', 'pages.id', 'pageSessions.pageId')
          .select([
            'actions.id',
            'actions.pageSessionId',
            'actions.leadId',
            'actions.action',
            'actions.receivedAt',
          ])
          .where('actions.leadId', 'in', ids)
          .where((eb) => eb.or([eb('actions.pageSessionId', 'is', null), eb('pages.id', 'is not', null)]))
          .orderBy('actions.id')
          .execute();
        const conversions = await db
          .selectFrom('conversions')
          .leftJoin('pages', 'pages.id', 'conversions.pageId')
          .select([
            'conversions.id',
            'conversions.leadId',
            'conversions.funnelId',
            'pages.id as pageId',
            'conversions.kind',
            'conversions.createdAt',
          ])
          .where('conversions.leadId', 'in', ids)
          .orderBy('conversions.id')
          .execute();
        return {
          sessions,
          videoRecords: records.map(({ details, ...row }) => ({ ...row, ...videoRecordDetails(details) })),
          actions,
          conversions,
        };
      },
    },

    /** Whether migration 0010 found data stored before the rollups, not yet rebuilt. */
    async rebuildPending(db: Executor): Promise<boolean> {
      const row = await db
        .selectFrom('instanceSettings')
        .select('value')
        .where('key', '=', REBUILD_KEY)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Marks a rebuild for the next start (rows were stored while the rollups were off). */
    async markRebuildPending(db: Executor): Promise<void> {
      await db
        .insertInto('instanceSettings')
        .values({ key: REBUILD_KEY, value: 'pending' })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    },
    async clearRebuildPending(db: Executor): Promise<void> {
      await db.deleteFrom('instanceSettings').where('key', '=', REBUILD_KEY).execute();
    },

    /** Deletes every rollup row of the account's funnels, pages and leads (a rebuild starts from none). */
    async deleteAccount(db: Executor, accountId: string): Promise<void> {
      const funnels = db.selectFrom('funnels').select('id').where('accountId', '=', accountId);
      const pages = db.selectFrom('pages').select('id').where('funnelId', 'in', funnels);
      const leads = db.selectFrom('leads').select('id').where('accountId', '=', accountId);
      await db.deleteFrom('analyticsSessions').where('leadId', 'in', leads).execute();
      await db.deleteFrom('analyticsLeadPages').where('leadId', 'in', leads).execute();
      for (const table of [
        'analyticsReach',
        'analyticsViews',
        'analyticsPageDays',
        'analyticsPageLeads',
        'analyticsFurthest',
        'analyticsPageMeta',
      ] as const) {
        await db.deleteFrom(table).where('pageId', 'in', pages).execute();
      }
      await db.deleteFrom('analyticsSteps').where('funnelId', 'in', funnels).execute();
      await db.deleteFrom('analyticsFunnelDays').where('funnelId', 'in', funnels).execute();
      // Kept answers of its pages are stale now, including those of pages the replay leaves empty.
      await db
        .updateTable('analyticsPageVersions')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('pageId', 'in', pages)
        .execute();
    },

    /** What a page's answer over a range reads (`page-rows.query.ts`). */
    pageRows: readPageRows,
    /** What a funnel's answer over a range reads (`funnel-rows.query.ts`). */
    funnelRows: readFunnelRows,
  };
  return repo;
}
export type AnalyticsRepo = ReturnType<typeof createAnalyticsRepo>;
