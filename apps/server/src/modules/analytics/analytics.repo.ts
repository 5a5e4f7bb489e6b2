import { sql, type Kysely } from 'kysely';
import { AccountSettings } from '@embudo/contracts';
import { z } from 'zod';
import type { Dialect } from '../../db/dialect';
import type { Database } from '../../db/schema';
import type { StatementText } from '../../db/reusable-query';
import { readJson } from '../../lib/json';
import type {
  ActionInput,
  ConversionInput,
  DayOf,
  DayRange,
  LeadInput,
  SessionInput,
  VideoRecordInput,
} from './analytics-types';
import { type FunnelRowsInput, type PageRowsInput } from './rollup-answers';
import {
  funnelDayRow,
  furthestRow,
  pageDayRow,
  pageLeadsRow,
  pageMetaRow,
  reachRow,
  stepRow,
  viewsRow,
  type AggregateRow,
  type LeadPageState,
  type LeadState,
  type PageLeadKind,
  type SessionState,
} from './rollup-rows';

/** The database or a transaction of it. */
type Executor = Kysely<Database>;

/** SQLite binds at most 32,766 values a statement: 500 rows of up to 7 columns stay far below. */
const ROWS_PER_STATEMENT = 500;

/** Set by migration 0010 when data was stored before the rollups existed. */
const REBUILD_KEY = 'analytics_rebuild';

/** What a video record's details say that analytics reads; anything else in them is ignored. */
const RecordDetails = z.object({
  state: z.string().catch(''),
  videoDuration: z.number().catch(0),
});

/** What a batch changed: state rows to write whole, aggregate deltas to add. */
export interface RollupChanges {
  sessions: readonly SessionState[];
  leadPages: readonly LeadPageState[];
  deltas: readonly AggregateRow[];
}

/** A page of raw rows of one table, read in key order after `after`. */
export interface RawPage<Row> {
  rows: Row[];
  last: string | undefined;
}

const Seconds = z.array(z.tuple([z.number(), z.number()]).readonly());
const SessionStateRow = z.object({
  sessionId: z.string(),
  pageId: z.string(),
  leadId: z.string(),
  funnelId: z.string(),
  day: z.number().int(),
  endReason: z.string().nullable(),
  passes: z.array(
    z.object({
      viewFrom: z.number(),
      viewTo: z.number(),
      spans: z.array(z.object({ from: z.number(), to: z.number() })),
      played: Seconds,
    }),
  ),
  secondsPlayed: z.number().int(),
  completed: z.boolean(),
}) satisfies z.ZodType<SessionState>;
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

/** JSON text as a value, or undefined when it is not JSON. */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function chunks<Row>(rows: readonly Row[]): Row[][] {
  const out: Row[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

const byTable = <Table extends AggregateRow['table']>(rows: readonly AggregateRow[], table: Table) =>
  rows.filter((row): row is Extract<AggregateRow, { table: Table }> => row.table === table);

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

/**
 * `insert … on conflict (keys) do update set count = table.count + excluded.count` for rows of one
 * kind: the columns are the spec's, named as the rest of the server names them (CamelCasePlugin turns
 * them into the tables' snake_case).
 */
function addingUpsert(db: Executor, spec: AddedSpec, rows: readonly AggregateRow[]): StatementText {
  const columns = [...spec.keys, ...spec.counts];
  const values = rows.map((row) => {
    const fields = row as unknown as Record<string, string | number>;
    return Object.fromEntries(columns.map((column) => [column, fields[column] ?? 0]));
  });
  // A table chosen at run time is beyond Kysely's types: the spec's names are checked by the tests.
  const query = (db as unknown as Kysely<Record<string, Record<string, string | number>>>)
    .insertInto(spec.table)
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(spec.keys)
        .doUpdateSet(
          Object.fromEntries(
            spec.counts.map((count) => [
              count,
              sql`${sql.ref(`${spec.table}.${count}`)} + ${sql.ref(`excluded.${count}`)}`,
            ]),
          ),
        ),
    );
  return query.compile();
}

/**
 * The analytics rollups in the database (decision 25, migration 0010): state rows as JSON read through
 * their schemas, aggregate rows written as deltas that add up (or, for a page's meta, take the larger),
 * and the rows a page's or a funnel's answer reads.
 */
export function createAnalyticsRepo(dialect: Dialect) {
  const larger = (column: string) =>
    dialect === 'postgres'
      ? sql<number>`greatest(${sql.ref(`analytics_page_meta.${column}`)}, ${sql.ref(`excluded.${column}`)})`
      : sql<number>`max(${sql.ref(`analytics_page_meta.${column}`)}, ${sql.ref(`excluded.${column}`)})`;

  /** The statements that write state rows (whole) and add aggregate deltas to their rows. */
  function writeStatements(db: Executor, outcome: RollupChanges): StatementText[] {
    const statements: StatementText[] = [];
    for (const rows of chunks(outcome.sessions)) {
      statements.push(
        db
          .insertInto('analyticsSessions')
          .values(
            rows.map((s) => ({
              sessionId: s.sessionId,
              pageId: s.pageId,
              leadId: s.leadId,
              state: JSON.stringify(s),
            })),
          )
          .onConflict((oc) => oc.column('sessionId').doUpdateSet({ state: (eb) => eb.ref('excluded.state') }))
          .compile(),
      );
    }
    for (const rows of chunks(outcome.leadPages)) {
      statements.push(
        db
          .insertInto('analyticsLeadPages')
          .values(rows.map((s) => ({ leadId: s.leadId, pageId: s.pageId, state: JSON.stringify(s) })))
          .onConflict((oc) =>
            oc.columns(['leadId', 'pageId']).doUpdateSet({ state: (eb) => eb.ref('excluded.state') }),
          )
          .compile(),
      );
    }
    const { deltas } = outcome;
    for (const [kind, spec] of Object.entries(ADDED) as [AddedKind, AddedSpec][]) {
      for (const rows of chunks(deltas.filter((row) => row.table === kind))) {
        statements.push(addingUpsert(db, spec, rows));
      }
    }
    for (const rows of chunks(byTable(deltas, 'pageMeta'))) {
      statements.push(
        db
          .insertInto('analyticsPageMeta')
          .values(
            rows.map(({ pageId, maxDuration, maxPlayedSecond }) => ({
              pageId,
              maxDuration,
              maxPlayedSecond,
            })),
          )
          .onConflict((oc) =>
            oc.column('pageId').doUpdateSet({
              maxDuration: larger('max_duration'),
              maxPlayedSecond: larger('max_played_second'),
            }),
          )
          .compile(),
      );
    }
    return statements;
  }

  return {
    /** The leads as the rollups know them: their funnel and the day they entered it. */
    async leads(
      db: Executor,
      ids: readonly string[],
      dayOfLead: (leadId: string) => DayOf,
    ): Promise<LeadState[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('leads')
        .select(['id', 'funnelId', 'createdAt'])
        .where('id', 'in', [...ids])
        .execute();
      return rows.map((row) => ({
        leadId: row.id,
        funnelId: row.funnelId,
        entryDay: dayOfLead(row.id)(row.createdAt),
      }));
    },

    /** Which of these ids a raw table holds already (a retried event is stored once). */
    async existingIds(
      db: Executor,
      table: 'pageSessions' | 'videoRecords' | 'actions',
      ids: readonly string[],
    ): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const found = new Set<string>();
      for (const part of chunks(ids)) {
        const rows = await db.selectFrom(table).select('id').where('id', 'in', part).execute();
        for (const row of rows) found.add(row.id);
      }
      return found;
    },

    /** Stored page sessions as the rollups take them, with whether their end is a real one. */
    async storedSessions(
      db: Executor,
      ids: readonly string[],
    ): Promise<(SessionInput & { endAt: number | null; endInferred: boolean })[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('pageSessions')
        .select(['id', 'leadId', 'funnelId', 'pageId', 'startAt', 'endAt', 'endReason', 'endInferred'])
        .where('id', 'in', [...ids])
        .execute();
      return rows.map((row) => ({ ...row, endInferred: row.endInferred === 1 }));
    },

    /** Each lead's account time zone (UTC when its settings name none). */
    async leadTimeZones(db: Executor, leadIds: readonly string[]): Promise<Map<string, string>> {
      if (leadIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('leads')
        .innerJoin('accounts', 'accounts.id', 'leads.accountId')
        .select(['leads.id', 'accounts.settings'])
        .where('leads.id', 'in', [...leadIds])
        .execute();
      return new Map(rows.map((row) => [row.id, readJson(AccountSettings, row.settings).timeZone]));
    },

    /** Sessions' state rows; `lock` (PostgreSQL) holds them until the transaction ends. */
    async sessions(db: Executor, ids: readonly string[], lock: boolean): Promise<SessionState[]> {
      if (ids.length === 0) return [];
      let query = db
        .selectFrom('analyticsSessions')
        .select(['sessionId', 'state'])
        .where('sessionId', 'in', [...ids])
        .orderBy('sessionId');
      if (lock && dialect === 'postgres') query = query.forUpdate();
      return (await query.execute()).map((row) => readJson(SessionStateRow, row.state));
    },

    /** Lead–page state rows of these pairs; `lock` as for sessions. */
    async leadPages(
      db: Executor,
      pairs: readonly { leadId: string; pageId: string }[],
      lock: boolean,
    ): Promise<LeadPageState[]> {
      if (pairs.length === 0) return [];
      const wanted = new Set(pairs.map((p) => JSON.stringify([p.leadId, p.pageId])));
      let query = db
        .selectFrom('analyticsLeadPages')
        .select(['leadId', 'pageId', 'state'])
        .where('leadId', 'in', [...new Set(pairs.map((p) => p.leadId))])
        .orderBy('leadId')
        .orderBy('pageId');
      if (lock && dialect === 'postgres') query = query.forUpdate();
      return (await query.execute())
        .filter((row) => wanted.has(JSON.stringify([row.leadId, row.pageId])))
        .map((row) => readJson(LeadPageStateRow, row.state));
    },

    writeStatements,

    /**
     * An account's raw rows as the rollups take them, one table at a time, `limit` rows after the id
     * `after` (keyset): what a rebuild replays. Leads, then sessions (with their end reason), then
     * records, actions and conversions, so that a session comes before its events.
     */
    raw: {
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
      sessions: async (
        db: Executor,
        accountId: string,
        after: string,
        limit: number,
      ): Promise<RawPage<SessionInput>> => {
        const rows = await db
          .selectFrom('pageSessions')
          .innerJoin('leads', 'leads.id', 'pageSessions.leadId')
          .select([
            'pageSessions.id',
            'pageSessions.leadId',
            'pageSessions.funnelId',
            'pageSessions.pageId',
            'pageSessions.startAt',
            'pageSessions.endReason',
          ])
          .where('leads.accountId', '=', accountId)
          .where('pageSessions.id', '>', after)
          .orderBy('pageSessions.id')
          .limit(limit)
          .execute();
        return { rows, last: rows.at(-1)?.id };
      },
      videoRecords: async (
        db: Executor,
        accountId: string,
        after: string,
        limit: number,
      ): Promise<RawPage<VideoRecordInput>> => {
        const rows = await db
          .selectFrom('videoRecords')
          .innerJoin('leads', 'leads.id', 'videoRecords.leadId')
          .select([
            'videoRecords.id',
            'videoRecords.pageSessionId',
            'videoRecords.leadId',
            'videoRecords.startViewTime',
            'videoRecords.endViewTime',
            'videoRecords.startTimeVideo',
            'videoRecords.endTimeVideo',
            'videoRecords.details',
          ])
          .where('leads.accountId', '=', accountId)
          .where('videoRecords.id', '>', after)
          .orderBy('videoRecords.id')
          .limit(limit)
          .execute();
        return {
          rows: rows.map(({ details, ...row }) => {
            const read = RecordDetails.safeParse(safeJson(details));
            return {
              ...row,
              state: read.success ? read.data.state : '',
              videoDuration: read.success ? read.data.videoDuration : 0,
            };
          }),
          last: rows.at(-1)?.id,
        };
      },
      actions: async (
        db: Executor,
        accountId: string,
        after: string,
        limit: number,
      ): Promise<RawPage<ActionInput>> => {
        const rows = await db
          .selectFrom('actions')
          .innerJoin('leads', 'leads.id', 'actions.leadId')
          .select([
            'actions.id',
            'actions.pageSessionId',
            'actions.leadId',
            'actions.action',
            'actions.receivedAt',
          ])
          .where('leads.accountId', '=', accountId)
          .where('actions.id', '>', after)
          .orderBy('actions.id')
          .limit(limit)
          .execute();
        return { rows, last: rows.at(-1)?.id };
      },
      conversions: async (
        db: Executor,
        accountId: string,
        after: string,
        limit: number,
      ): Promise<RawPage<ConversionInput>> => {
        const rows = await db
          .selectFrom('conversions')
          .select(['id', 'leadId', 'funnelId', 'pageId', 'kind', 'createdAt'])
          .where('accountId', '=', accountId)
          .where('id', '>', after)
          .orderBy('id')
          .limit(limit)
          .execute();
        return { rows, last: rows.at(-1)?.id };
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
    },

    /** What a page's answer over a range reads: rows of the page and the range's days only. */
    async pageRows(
      db: Executor,
      pageId: string,
      range: DayRange,
    ): Promise<Omit<PageRowsInput, 'page' | 'range'>> {
      const [reach, views, pageDays, pageLeads, furthest, meta] = await Promise.all([
        db
          .selectFrom('analyticsReach')
          .select(['day', 'prevDay', 'second', 'delta'])
          .where('pageId', '=', pageId)
          .where('day', '>=', range.from)
          .where('day', '<=', range.to)
          .where('prevDay', '<', range.from)
          .execute(),
        db
          .selectFrom('analyticsViews')
          .select(['day', 'second', 'delta'])
          .where('pageId', '=', pageId)
          .where('day', '>=', range.from)
          .where('day', '<=', range.to)
          .execute(),
        db
          .selectFrom('analyticsPageDays')
          .selectAll()
          .where('pageId', '=', pageId)
          .where('day', '>=', range.from)
          .where('day', '<=', range.to)
          .execute(),
        db
          .selectFrom('analyticsPageLeads')
          .select(['kind', 'day', 'prevDay', 'leads'])
          .where('pageId', '=', pageId)
          .where('day', '>=', range.from)
          .where('day', '<=', range.to)
          .where('prevDay', '<', range.from)
          .execute(),
        db
          .selectFrom('analyticsFurthest')
          .select(['firstPlayDay', 'furthestSecond', 'leads', 'converted'])
          .where('pageId', '=', pageId)
          .where('firstPlayDay', '>=', range.from)
          .where('firstPlayDay', '<=', range.to)
          .execute(),
        db.selectFrom('analyticsPageMeta').selectAll().where('pageId', '=', pageId).executeTakeFirst(),
      ]);
      const n = Number;
      return {
        reach: reach.map((r) => reachRow(pageId, n(r.day), n(r.prevDay), n(r.second), n(r.delta))),
        views: views.map((r) => viewsRow(pageId, n(r.day), n(r.second), n(r.delta))),
        pageDays: pageDays.map((r) =>
          pageDayRow(pageId, n(r.day), {
            sessions: n(r.sessions),
            plays: n(r.plays),
            secondsPlayed: n(r.secondsPlayed),
            clicks: n(r.clicks),
            conversions: n(r.conversions),
          }),
        ),
        pageLeads: pageLeads.map((r) =>
          pageLeadsRow(pageId, r.kind as PageLeadKind, n(r.day), n(r.prevDay), n(r.leads)),
        ),
        furthest: furthest.map((r) =>
          furthestRow(pageId, n(r.firstPlayDay), n(r.furthestSecond), n(r.leads), n(r.converted)),
        ),
        pageMeta: meta && pageMetaRow(pageId, n(meta.maxDuration), n(meta.maxPlayedSecond)),
      };
    },

    /** What a funnel's answer over a range reads. */
    async funnelRows(
      db: Executor,
      funnelId: string,
      pageIds: readonly string[],
      range: DayRange,
    ): Promise<Omit<FunnelRowsInput, 'funnelId' | 'pages' | 'range'>> {
      const [steps, funnelDays, pageDays] = await Promise.all([
        db
          .selectFrom('analyticsSteps')
          .selectAll()
          .where('funnelId', '=', funnelId)
          .where('entryDay', '>=', range.from)
          .where('entryDay', '<=', range.to)
          .execute(),
        db
          .selectFrom('analyticsFunnelDays')
          .selectAll()
          .where('funnelId', '=', funnelId)
          .where('day', '>=', range.from)
          .where('day', '<=', range.to)
          .execute(),
        pageIds.length === 0
          ? Promise.resolve([])
          : db
              .selectFrom('analyticsPageDays')
              .selectAll()
              .where('pageId', 'in', [...pageIds])
              .where('day', '>=', range.from)
              .where('day', '<=', range.to)
              .execute(),
      ]);
      const n = Number;
      return {
        steps: steps.map((r) =>
          stepRow(funnelId, r.pageId, n(r.entryDay), {
            reached: n(r.reached),
            completed: n(r.completed),
            clicked: n(r.clicked),
            converted: n(r.converted),
          }),
        ),
        funnelDays: funnelDays.map((r) =>
          funnelDayRow(funnelId, n(r.day), { entered: n(r.entered), conversions: n(r.conversions) }),
        ),
        pageDays: pageDays.map((r) =>
          pageDayRow(r.pageId, n(r.day), {
            sessions: n(r.sessions),
            plays: n(r.plays),
            secondsPlayed: n(r.secondsPlayed),
            clicks: n(r.clicks),
            conversions: n(r.conversions),
          }),
        ),
      };
    },
  };
}
export type AnalyticsRepo = ReturnType<typeof createAnalyticsRepo>;
