/**
 * A page with many video records for bench row (b) of issue 19: an account (time zone UTC−3, with a
 * known API key), a funnel of a video sales letter page (a 20-minute video, its button at 12:00) and
 * an offer page, and raw rows written straight into the database as the tracking routes write them:
 * leads entering the funnel over the last 30 days, page sessions (a first visit right after the lead
 * entered, then returns on later days, until the records reach the number asked for), the video
 * records of each session as the player's tracker sends them (a PLAYING point when a stretch opens,
 * milestone PROGRESS points at 25/50/75 %, a PAUSE, INTERRUPTED or ENDED record closing the stretch,
 * SKIP records after seeks, replays after seeking back, and for some stretches a report of the stretch
 * so far that overlaps the closing one), button clicks past the button time, sessions on the offer
 * page, and conversions. Ids are random like the server's (SHA-256 of the event), so records of a
 * session lie all over the id order.
 *
 * Then the rollups are computed by the real code: `analytics rebuild` of the account (the service
 * the CLI runs), which replays every raw row. Generation is deterministic (a seeded generator).
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { DEV_BASE_DOMAINS } from '@embudo/contracts';
import { migrate, openDatabase, sqliteFile } from '../../apps/server/src/db';
import { dialectOf } from '../../apps/server/src/db/dialect';
import { hashToken } from '../../apps/server/src/lib/tokens';
import { dayText, zoneDay } from '../../apps/server/src/lib/zone-days';
import type { RebuildCounts } from '../../apps/server/src/modules/analytics/analytics.service';
import { createServices } from '../../apps/server/src/services';
import { benchLeadId, benchToken } from './leads';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The account's zone: UTC−3 all year, so a day is not a UTC day. */
export const BENCH_TIME_ZONE = 'America/Sao_Paulo';
/** The video sales letter's length and button time, in seconds. */
export const VIDEO_SECONDS = 1200;
export const BUTTON_SECONDS = 720;

export interface AnalyticsSizes {
  leads: number;
  /** Video records in all (exactly). */
  records: number;
  /** Days the leads and sessions spread over, up to now. */
  days: number;
}

export interface AnalyticsData {
  apiKey: string;
  accountId: string;
  funnelId: string;
  /** The video sales letter's page: every video record is one of its sessions'. */
  pageId: string;
  offerPageId: string;
  timeZone: string;
  /** The range the rows cover, as the route takes it (account time zone, inclusive). */
  from: string;
  to: string;
  counts: { leads: number; sessions: number; videoRecords: number; actions: number; conversions: number };
  /** How long each step took. */
  seconds: { insert: number; rebuild: number };
  rebuilt: RebuildCounts;
}

/** mulberry32: small, fast and good enough to spread a bench's data. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface LeadRow {
  id: string;
  tokenHash: string;
  name: string;
  currentPageId: string;
  createdAt: number;
}
interface SessionRow {
  id: string;
  leadId: string;
  pageId: string;
  startAt: number;
  startReason: string;
  endAt: number;
  endReason: string;
  details: string;
}
interface RecordRow {
  id: string;
  pageSessionId: string;
  leadId: string;
  startViewTime: number;
  endViewTime: number;
  startTimeVideo: number;
  endTimeVideo: number;
  details: string;
  receivedAt: number;
}
interface ActionRow {
  id: string;
  pageSessionId: string;
  leadId: string;
  occurredAt: number;
  receivedAt: number;
}
interface ConversionRow {
  id: string;
  leadId: string;
  createdAt: number;
}

/** Rows of every table, collected until written. */
interface Batch {
  leads: LeadRow[];
  sessions: SessionRow[];
  records: RecordRow[];
  actions: ActionRow[];
  conversions: ConversionRow[];
}
const emptyBatch = (): Batch => ({ leads: [], sessions: [], records: [], actions: [], conversions: [] });

/** Where batches go: SQLite through prepared statements, PostgreSQL through unnested arrays. */
interface Sink {
  write(batch: Batch): Promise<void>;
  close(): Promise<void>;
}

interface Ids {
  accountId: string;
  funnelId: string;
  pageId: string;
  offerPageId: string;
}

const USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

/**
 * The raw rows, in batches of about `leadsPerBatch` leads: every lead with its first session, then
 * return sessions of leads drawn at random until exactly `sizes.records` video records exist.
 */
async function generate(sizes: AnalyticsSizes, ids: Ids, now: number, earliest: number, sink: Sink) {
  const random = generator(19);
  const hex = () =>
    Math.floor(random() * 4_294_967_296)
      .toString(16)
      .padStart(8, '0');
  const randomId = () => `${hex()}${hex()}${hex()}${hex()}`;
  const createdAtOf = new Float64Array(sizes.leads);
  const leadIdOf: string[] = [];
  const counts = { leads: 0, sessions: 0, videoRecords: 0, actions: 0, conversions: 0 };
  let batch = emptyBatch();
  const flush = async () => {
    await sink.write(batch);
    batch = emptyBatch();
  };
  const room = () => sizes.records - counts.videoRecords;

  /** One session of lead `index` on the video page from `startAt`, its records, click and offer visit. */
  const session = (index: number, startAt: number, resumeFrom: number) => {
    const leadId = leadIdOf[index] as string;
    const id = randomId();
    counts.sessions++;
    const first = resumeFrom === 0 && startAt - (createdAtOf[index] ?? 0) < 60_000;
    // The visitor's clock is its own: only differences of it mean something.
    const skew = Math.round((random() - 0.5) * 240_000);
    let view = startAt + skew + 2000 + Math.floor(random() * 6000);
    let endReason = 'PAGE_CLOSE';
    let clickedAt: number | null = null;
    const records: RecordRow[] = [];
    const record = (
      state: string,
      from: { view: number; video: number },
      to: { view: number; video: number },
      progress?: number,
    ) => {
      records.push({
        id: randomId(),
        pageSessionId: id,
        leadId,
        startViewTime: from.view,
        endViewTime: to.view,
        startTimeVideo: Math.round(from.video * 1000) / 1000,
        endTimeVideo: Math.round(to.video * 1000) / 1000,
        details: JSON.stringify({
          videoDuration: VIDEO_SECONDS,
          reproductionTime: Math.max(0, to.view - from.view),
          state,
          ...(progress === undefined
            ? {}
            : {
                videoProgressUpdate: {
                  seconds: Math.round(to.video * 100) / 100,
                  percent: progress,
                },
              }),
        }),
        // Sent when it happened, received a little later.
        receivedAt: startAt + (to.view - (startAt + skew)) + 40 + Math.floor(random() * 400),
      });
    };
    if (random() < 0.78) {
      let position = resumeFrom;
      const milestones = new Set<number>();
      for (let stretch = 0; stretch < 12; stretch++) {
        // How long this stretch plays: most viewers drop off early, some watch to the end.
        let length = Math.min(
          VIDEO_SECONDS - position,
          Math.max(0.4, -Math.log(1 - random()) * (stretch === 0 ? 360 : 200)),
        );
        // Past the button, some click it (a few seconds to a minute and a half after it shows): the
        // next page opens, and playback stops there.
        let clicks = false;
        if (position <= BUTTON_SECONDS && position + length > BUTTON_SECONDS && random() < 0.3) {
          length = Math.min(length, BUTTON_SECONDS - position + 5 + random() * 90);
          clicks = true;
        }
        const open = { view, video: position };
        record('PLAYING', open, open);
        if (length > 60 && random() < 0.35) {
          // A report of the stretch so far, which the closing record covers again.
          const part = 30 + random() * (length - 30);
          record('PROGRESS', open, { view: view + Math.round(part * 1000), video: position + part });
        }
        for (const percent of [25, 50, 75]) {
          const at = (VIDEO_SECONDS * percent) / 100;
          if (milestones.has(percent) || position >= at || position + length < at) continue;
          milestones.add(percent);
          const point = { view: view + Math.round((at - position) * 1000), video: at };
          record('PROGRESS', point, point, percent);
        }
        const end = position + length;
        view += Math.round(length * 1000);
        // The visitor's clock back to the server's, plus the time the click takes to arrive.
        if (clicks) clickedAt = view - skew + 150;
        const close = { view, video: end };
        if (end >= VIDEO_SECONDS - 0.001) {
          record('ENDED', open, close);
          endReason = 'VIDEO_ENDED';
          break;
        }
        const next = random();
        if (next < 0.45 || clickedAt !== null) {
          record(random() < 0.7 ? 'INTERRUPTED' : 'PAUSE', open, close);
          break;
        }
        record('PAUSE', open, close);
        if (next < 0.7) {
          // A pause, then play again where it stopped.
          view += 2000 + Math.floor(random() * 60_000);
          position = end;
        } else {
          // A seek: back (a replay) more often than forward; the skip is reported a second later.
          const to = random() < 0.6 ? random() * end : Math.min(VIDEO_SECONDS - 1, end + 5 + random() * 120);
          view += 300 + Math.floor(random() * 2000);
          const skip = { view: view + 1000, video: to };
          record('SKIP', { view, video: end }, skip);
          view += 1000;
          position = to;
        }
      }
    }
    const kept = records.slice(0, Math.max(0, room()));
    counts.videoRecords += kept.length;
    batch.records.push(...kept);
    const lastView = view - (startAt + skew);
    if (clickedAt !== null) endReason = 'BUTTON_CLICK';
    const endAt = clickedAt ?? startAt + lastView + 1000 + Math.floor(random() * 30_000);
    batch.sessions.push({
      id,
      leadId,
      pageId: ids.pageId,
      startAt,
      startReason: first || random() < 0.8 ? 'INITIAL_LOAD' : 'AFTER_INACTIVITY',
      endAt,
      endReason,
      details: JSON.stringify({
        visitorType: first ? 'NEW' : 'RETURNING',
        userAgent: USER_AGENT,
        ip: `177.${index % 256}.${(index >> 8) % 256}.${(index >> 16) % 256}`,
      }),
    });
    if (clickedAt !== null) {
      counts.actions++;
      batch.actions.push({
        id: randomId(),
        pageSessionId: id,
        leadId,
        occurredAt: clickedAt + skew,
        receivedAt: clickedAt,
      });
      counts.sessions++;
      const offerStart = clickedAt + 800;
      batch.sessions.push({
        id: randomId(),
        leadId,
        pageId: ids.offerPageId,
        startAt: offerStart,
        startReason: 'INITIAL_LOAD',
        endAt: offerStart + 20_000 + Math.floor(random() * 300_000),
        endReason: 'PAGE_CLOSE',
        details: JSON.stringify({ visitorType: 'RETURNING', userAgent: USER_AGENT }),
      });
      if (random() < 0.4) {
        counts.conversions++;
        batch.conversions.push({
          id: randomId(),
          leadId,
          createdAt: offerStart + 60_000 + Math.floor(random() * 600_000),
        });
      }
    }
    return records.length;
  };

  const span = now - HOUR_MS - earliest;
  const LEADS_PER_BATCH = 5000;
  for (let from = 0; from < sizes.leads; from += LEADS_PER_BATCH) {
    const to = Math.min(sizes.leads, from + LEADS_PER_BATCH);
    for (let i = from; i < to; i++) {
      const createdAt = earliest + Math.floor(random() * span);
      createdAtOf[i] = createdAt;
      const id = benchLeadId(createdAt, i);
      leadIdOf[i] = id;
      counts.leads++;
      batch.leads.push({
        id,
        tokenHash: hashToken(benchToken('an', i)),
        name: `Lead ${i}`,
        currentPageId: ids.pageId,
        createdAt,
      });
    }
    for (let i = from; i < to && room() > 0; i++) session(i, (createdAtOf[i] ?? 0) + 1500, 0);
    await flush();
  }
  // Return visits: a lead drawn at random comes back later, often resuming where it stopped.
  while (room() > 0) {
    for (let n = 0; n < LEADS_PER_BATCH * 2 && room() > 0; n++) {
      const index = Math.floor(random() * sizes.leads);
      const createdAt = createdAtOf[index] ?? 0;
      const latest = now - HOUR_MS;
      if (latest - createdAt < 20 * 60_000) continue;
      const startAt = createdAt + 20 * 60_000 + Math.floor(random() * (latest - createdAt - 20 * 60_000));
      session(index, startAt, random() < 0.5 ? 0 : Math.floor(random() * BUTTON_SECONDS));
    }
    await flush();
  }
  return counts;
}

/** SQLite: one prepared statement a table, a transaction a batch. */
function sqliteSink(file: string, ids: Ids): Sink {
  const sqlite = new SQLite(file);
  // Nothing reads this file until the inserts are done; a crash here only loses a bench run.
  sqlite.pragma('synchronous = OFF');
  // 2 GB of page cache in this process: the random ids' indexes stay in memory.
  sqlite.pragma('cache_size = -2000000');
  const lead = sqlite.prepare(
    `insert into leads (id, account_id, funnel_id, token_hash, name, email, phone, current_page_id,
       deadline_at, deadline_exception_on, created_at, last_ip, last_ip_at)
     values (?, ?, ?, ?, ?, null, null, ?, null, null, ?, null, null)`,
  );
  const session = sqlite.prepare(
    `insert into page_sessions (id, lead_id, funnel_id, page_id, start_at, start_reason, end_at, end_reason,
       end_inferred, details, end_details, last_seen_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, null, ?)`,
  );
  const record = sqlite.prepare(
    `insert into video_records (id, page_session_id, lead_id, start_view_time, end_view_time, start_time_video,
       end_time_video, details, received_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const action = sqlite.prepare(
    `insert into actions (id, page_session_id, lead_id, action, occurred_at, details, received_at)
     values (?, ?, ?, 'BUTTON_CLICK', ?, '{}', ?)`,
  );
  const conversion = sqlite.prepare(
    `insert into conversions (id, account_id, funnel_id, lead_id, page_id, kind, details, created_at)
     values (?, ?, ?, ?, ?, 'OFFERT', '{}', ?)`,
  );
  const write = sqlite.transaction((b: Batch) => {
    for (const l of b.leads)
      lead.run(l.id, ids.accountId, ids.funnelId, l.tokenHash, l.name, l.currentPageId, l.createdAt);
    for (const s of b.sessions)
      session.run(
        s.id,
        s.leadId,
        ids.funnelId,
        s.pageId,
        s.startAt,
        s.startReason,
        s.endAt,
        s.endReason,
        s.details,
        s.endAt,
      );
    for (const r of b.records)
      record.run(
        r.id,
        r.pageSessionId,
        r.leadId,
        r.startViewTime,
        r.endViewTime,
        r.startTimeVideo,
        r.endTimeVideo,
        r.details,
        r.receivedAt,
      );
    for (const a of b.actions) action.run(a.id, a.pageSessionId, a.leadId, a.occurredAt, a.receivedAt);
    for (const c of b.conversions)
      conversion.run(c.id, ids.accountId, ids.funnelId, c.leadId, ids.pageId, Math.round(c.createdAt));
  });
  return {
    write: (b) => {
      write(b);
      return Promise.resolve();
    },
    close: () => {
      // The next steps start on a compact file, not behind a write-ahead log of millions of rows.
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      sqlite.close();
      return Promise.resolve();
    },
  };
}

/** The tables the bench's load writes. */
const RAW_TABLES = ['leads', 'page_sessions', 'video_records', 'actions', 'conversions'];

/** PostgreSQL: each table's rows of a batch as one insert of unnested arrays, 20,000 rows at most. */
async function postgresSink(url: string, ids: Ids): Promise<Sink> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('set synchronous_commit = off');
  const STATEMENT_ROWS = 20_000;
  const insert = async <Row>(rows: readonly Row[], sql: string, columns: ((row: Row) => unknown)[]) => {
    for (let i = 0; i < rows.length; i += STATEMENT_ROWS) {
      const part = rows.slice(i, i + STATEMENT_ROWS);
      await client.query(
        sql,
        columns.map((column) => part.map(column)),
      );
    }
  };
  const insertBatch = async (b: Batch) => {
    await insert(
      b.leads,
      `insert into leads (id, account_id, funnel_id, token_hash, name, current_page_id, created_at)
         select id, '${ids.accountId}', '${ids.funnelId}', token_hash, name, page_id, created_at
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
           as t(id, token_hash, name, page_id, created_at)`,
      [(l) => l.id, (l) => l.tokenHash, (l) => l.name, (l) => l.currentPageId, (l) => l.createdAt],
    );
    await insert(
      b.sessions,
      `insert into page_sessions (id, lead_id, funnel_id, page_id, start_at, start_reason, end_at, end_reason,
           end_inferred, details, last_seen_at)
         select id, lead_id, '${ids.funnelId}', page_id, start_at, start_reason, end_at, end_reason, 0, details, end_at
         from unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint[], $7::text[], $8::text[])
           as t(id, lead_id, page_id, start_at, start_reason, end_at, end_reason, details)`,
      [
        (s) => s.id,
        (s) => s.leadId,
        (s) => s.pageId,
        (s) => s.startAt,
        (s) => s.startReason,
        (s) => s.endAt,
        (s) => s.endReason,
        (s) => s.details,
      ],
    );
    await insert(
      b.records,
      `insert into video_records (id, page_session_id, lead_id, start_view_time, end_view_time, start_time_video,
           end_time_video, details, received_at)
         select * from unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::float8[],
           $7::float8[], $8::text[], $9::bigint[])`,
      [
        (r) => r.id,
        (r) => r.pageSessionId,
        (r) => r.leadId,
        (r) => r.startViewTime,
        (r) => r.endViewTime,
        (r) => r.startTimeVideo,
        (r) => r.endTimeVideo,
        (r) => r.details,
        (r) => r.receivedAt,
      ],
    );
    await insert(
      b.actions,
      `insert into actions (id, page_session_id, lead_id, action, occurred_at, details, received_at)
         select id, session_id, lead_id, 'BUTTON_CLICK', occurred_at, '{}', received_at
         from unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
           as t(id, session_id, lead_id, occurred_at, received_at)`,
      [(a) => a.id, (a) => a.pageSessionId, (a) => a.leadId, (a) => a.occurredAt, (a) => a.receivedAt],
    );
    await insert(
      b.conversions,
      `insert into conversions (id, account_id, funnel_id, lead_id, page_id, kind, details, created_at)
         select id, '${ids.accountId}', '${ids.funnelId}', lead_id, '${ids.pageId}', 'OFFERT', '{}', created_at
         from unnest($1::text[], $2::text[], $3::bigint[]) as t(id, lead_id, created_at)`,
      [(c) => c.id, (c) => c.leadId, (c) => Math.round(c.createdAt)],
    );
  };
  return {
    write: async (b) => {
      await client.query('begin');
      try {
        await insertBatch(b);
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
      await client.query('commit');
    },
    async close() {
      // What autovacuum would do after such a load, before the rebuild and the server read it.
      for (const table of RAW_TABLES) await client.query(`analyze ${table}`);
      await client.end();
    },
  };
}

/** The tables the rebuild after the load writes. */
const ROLLUP_TABLES = [
  'analytics_sessions',
  'analytics_lead_pages',
  'analytics_reach',
  'analytics_views',
  'analytics_page_days',
  'analytics_page_leads',
  'analytics_furthest',
  'analytics_steps',
  'analytics_funnel_days',
  'analytics_page_meta',
  'analytics_page_versions',
];

/**
 * What autovacuum and the checkpointer do after millions of rows are stored and rebuilt, done before
 * the measurement instead of beside it, where they would compete with the server for this machine's
 * two cores: every table written is vacuumed and analyzed, and a checkpoint writes their pages out
 * (pgbench vacuums before each run for the same reason). A run that vacuumed only the rollup tables
 * measured the kept answer's p99 at 10^7 records at 0.94 and then 1.62 of the one at 10^4.
 */
async function settleDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const table of [...RAW_TABLES, ...ROLLUP_TABLES]) await client.query(`vacuum (analyze) ${table}`);
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
}

const BENCH_KEY = `emb_${'analytics'.padEnd(43, '0')}`;

/** The first instant of `day` in the zone (zones move by quarter hours). */
function startOfZoneDay(timeZone: string, day: number): number {
  let at = day * DAY_MS;
  while (zoneDay(timeZone, at) < day) at += 15 * 60_000;
  while (zoneDay(timeZone, at - 15 * 60_000) >= day) at -= 15 * 60_000;
  return at;
}

/**
 * A new account, funnel and pages on the (migrated) database, `sizes` of raw rows, then the account's
 * rollups rebuilt by the service `embudo analytics rebuild` runs. `log` hears of progress.
 */
export async function buildAnalyticsData(
  databaseUrl: string,
  sizes: AnalyticsSizes,
  log: (line: string) => void = () => undefined,
): Promise<AnalyticsData> {
  const database = openDatabase(databaseUrl);
  let ids: Ids;
  try {
    await migrate(database);
    const services = await createServices(database, {
      publicUrl: 'http://127.0.0.1:3000',
      baseDomains: [...DEV_BASE_DOMAINS],
      geoDatabase: 'off',
    });
    const { account } = await services.accounts.create(
      { slug: 'analytics-bench', name: 'Analytics bench' },
      { apiKey: BENCH_KEY },
    );
    await services.accounts.update(account.id, { settings: { timeZone: BENCH_TIME_ZONE } });
    const funnel = await services.funnels.create(account, { name: 'Launch' });
    const page = await services.pages.create(account, funnel.id, {
      headline: 'The video',
      hostingVideo: 'SELF_HOSTED',
      videoUrl: '/demo/vsl.mp4',
      buttonTime: { hours: 0, minutes: Math.floor(BUTTON_SECONDS / 60), seconds: BUTTON_SECONDS % 60 },
      buttonAction: 'NEXT-PAGE',
    });
    const offer = await services.pages.create(account, funnel.id, { headline: 'The offer' });
    ids = { accountId: account.id, funnelId: funnel.id, pageId: page.id, offerPageId: offer.id };
  } finally {
    await database.close();
  }

  const now = Date.now();
  const today = zoneDay(BENCH_TIME_ZONE, now);
  const firstDay = today - sizes.days + 1;
  const earliest = startOfZoneDay(BENCH_TIME_ZONE, firstDay);
  const insertStarted = Date.now();
  const sink =
    dialectOf(databaseUrl) === 'sqlite'
      ? sqliteSink(sqliteFile(databaseUrl), ids)
      : await postgresSink(databaseUrl, ids);
  let counts;
  try {
    counts = await generate(sizes, ids, now, earliest, sink);
  } finally {
    await sink.close();
  }
  const insert = (Date.now() - insertStarted) / 1000;
  log(
    `  ${counts.leads.toLocaleString('en-US')} leads, ${counts.sessions.toLocaleString('en-US')} sessions, ` +
      `${counts.videoRecords.toLocaleString('en-US')} video records generated and stored in ${insert.toFixed(0)} s; rebuilding the rollups`,
  );

  const rebuildStarted = Date.now();
  const again = openDatabase(databaseUrl);
  let rebuilt: RebuildCounts;
  try {
    const services = await createServices(again, {
      publicUrl: 'http://127.0.0.1:3000',
      baseDomains: [...DEV_BASE_DOMAINS],
      geoDatabase: 'off',
    });
    rebuilt = await services.analytics.rebuild(ids.accountId);
  } finally {
    await again.close();
  }
  const rebuild = (Date.now() - rebuildStarted) / 1000;
  log(`  rollups rebuilt in ${rebuild.toFixed(0)} s`);
  if (dialectOf(databaseUrl) === 'postgres') {
    const settling = Date.now();
    await settleDatabase(databaseUrl);
    log(
      `  tables vacuumed and analyzed, and a checkpoint taken, in ${((Date.now() - settling) / 1000).toFixed(0)} s`,
    );
  }
  return {
    apiKey: BENCH_KEY,
    ...ids,
    timeZone: BENCH_TIME_ZONE,
    from: dayText(firstDay),
    to: dayText(today),
    counts,
    seconds: { insert, rebuild },
    rebuilt,
  };
}
