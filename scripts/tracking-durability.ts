/**
 * Tracking durability under a crash: every event that got a 2xx is in the database after a SIGKILL.
 *
 *   npx tsx scripts/tracking-durability.ts [--database postgres://…|sqlite:…] [--seconds 3] [--clients 50]
 *                                          [--min-acknowledged 0] [--keep]
 *
 * It seeds the demo into a fresh database (a new SQLite file, or a new schema of the PostgreSQL database
 * given), starts the real server process (`tsx apps/server/src/main.ts`), opens a page session for each
 * demo lead, and lets N clients send video records and actions with unique event ids as fast as the
 * server answers, each awaiting its answer. In the middle of that load the server is killed with
 * SIGKILL. It is then started again on the same database, and every acknowledged event is looked up
 * by its stored id. It prints "acknowledged A, stored S, lost L" and exits 1 when anything was lost.
 *
 * apps/server/src/modules/tracking/durability.test.ts runs the same procedure on every test dialect.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Dialect } from '../apps/server/src/db/dialect';
import { sessionEventId } from '../apps/server/src/lib/event-ids';
import { countStored, prepareDatabase, seedDemoLeads } from './lib/scratch-database';
import {
  killAll,
  killServer,
  sleep,
  startServer,
  waitUntilRefused,
  type RunningServer,
} from './lib/server-process';

export interface DurabilityOptions {
  /** postgres://… (a fresh schema is made in it) or sqlite:… (used as is); default a fresh SQLite file. */
  database?: string;
  /** How long the load runs before the SIGKILL (at least). */
  seconds?: number;
  /**
   * Keep the load running past `seconds` until this many events were acknowledged (at most 60 s), so
   * that a slow or busy machine still kills the server under a real load. Default 0.
   */
  minAcknowledged?: number;
  /** Concurrent clients, each sending one event at a time. */
  clients?: number;
  /** Keep the database (the SQLite file or the PostgreSQL schema) afterwards. */
  keep?: boolean;
  /** Progress lines; default none. */
  log?: (line: string) => void;
}

export interface DurabilityResult {
  dialect: Dialect;
  /** Where the data is, safe to print (no password). */
  databaseLabel: string;
  clients: number;
  /** Milliseconds from the start of the load to the SIGKILL. */
  loadMs: number;
  /** Events answered 2xx with result true: the server said they were stored. */
  acknowledged: number;
  /** Of those, how many are in the database after the restart. */
  stored: number;
  lost: number;
  /** Acknowledged events per kind. */
  videos: number;
  actions: number;
  /** Requests that got no answer (cut by the kill) or another status; never counted as acknowledged. */
  unanswered: number;
  otherStatus: number;
  /** 2xx answers whose body said result false (tracking closed): not promised to be stored. */
  refused: number;
  /** Rows of the two tables after the restart, acknowledged or not. */
  videoRows: number;
  actionRows: number;
  /** The server started again on the database it was killed on, and took a new event. */
  restarted: boolean;
  /** Ids of acknowledged events that are missing, at most 20. */
  missing: string[];
}

interface Acknowledged {
  sessionId: string;
  leadId: string;
  kind: 'video' | 'action';
  clientEventId: string;
}

export interface Session {
  token: string;
  leadId: string;
  sessionId: string;
}

/** Runs the whole procedure once and returns the counts. */
export async function runDurability(options: DurabilityOptions = {}): Promise<DurabilityResult> {
  const seconds = options.seconds ?? 3;
  const clients = options.clients ?? 50;
  const log = options.log ?? (() => undefined);
  const target = await prepareDatabase(options.database, options.keep ?? false);
  const servers: RunningServer[] = [];
  try {
    const publicUrl = 'http://127.0.0.1:3000';
    const leads = await seedDemoLeads(target.url, publicUrl);
    log(`seeded the demo into ${target.label}: ${leads.length} leads`);

    const first = await startServer(target.url, servers);
    log(`server started at ${first.url}`);
    const sessions: Session[] = [];
    for (const lead of leads)
      sessions.push({ ...lead, sessionId: await startSession(first.url, lead.token) });

    const acknowledged: Acknowledged[] = [];
    const counts = { unanswered: 0, otherStatus: 0, refused: 0 };
    let killed = false;
    const runTag = randomBytes(6).toString('base64url');
    const loadStarted = Date.now();
    const load = Array.from({ length: clients }, async (_, client) => {
      for (let seq = 0; !killed; seq++) {
        const session = sessions[(client + seq) % sessions.length] as Session;
        const kind = seq % 2 === 0 ? 'video' : 'action';
        const clientEventId = `${runTag}-${client}-${seq}`;
        const answer = await send(first.url, kind, session, clientEventId, seq);
        if (answer === 'acknowledged')
          acknowledged.push({ sessionId: session.sessionId, leadId: session.leadId, kind, clientEventId });
        else counts[answer] += 1;
      }
    });
    await sleep(seconds * 1000);
    const limit = loadStarted + 60_000;
    while (acknowledged.length < (options.minAcknowledged ?? 0) && Date.now() < limit) await sleep(20);
    killServer(first, 'SIGKILL');
    killed = true;
    const loadMs = Date.now() - loadStarted;
    await first.exited;
    await Promise.all(load);
    await waitUntilRefused(first.url);
    log(`SIGKILL after ${loadMs} ms of load; ${acknowledged.length} events were acknowledged`);

    const second = await startServer(target.url, servers);
    const probe = sessions[0] as Session;
    const restarted =
      (await send(second.url, 'video', probe, `${runTag}-after-restart`, 0)) === 'acknowledged';
    log(`server restarted on the same database at ${second.url}`);
    killServer(second, 'SIGTERM');
    await second.exited;

    const check = await countStored(
      target.url,
      acknowledged.map((a) => ({
        kind: a.kind,
        id: sessionEventId(a.sessionId, a.leadId, a.kind, a.clientEventId),
      })),
    );
    const result: DurabilityResult = {
      dialect: target.dialect,
      databaseLabel: target.label,
      clients,
      loadMs,
      acknowledged: acknowledged.length,
      stored: check.stored,
      lost: acknowledged.length - check.stored,
      videos: acknowledged.filter((a) => a.kind === 'video').length,
      actions: acknowledged.filter((a) => a.kind === 'action').length,
      ...counts,
      videoRows: check.rows.videoRecords,
      actionRows: check.rows.actions,
      restarted,
      missing: check.missing,
    };
    return result;
  } finally {
    await killAll(servers);
    await target.cleanup();
  }
}

/** One line for people: "acknowledged 12345, stored 12345, lost 0" and what it ran on. */
export function formatResult(r: DurabilityResult): string {
  return [
    `acknowledged ${r.acknowledged}, stored ${r.stored}, lost ${r.lost}`,
    `  ${r.dialect} (${r.databaseLabel}), ${r.clients} clients, SIGKILL after ${r.loadMs} ms ` +
      `(${Math.round((r.acknowledged / r.loadMs) * 1000)} acknowledged events/s)`,
    `  acknowledged: ${r.videos} video records, ${r.actions} actions; ` +
      `rows after restart: ${r.videoRows} video records, ${r.actionRows} actions`,
    `  not acknowledged: ${r.unanswered} cut by the kill, ${r.otherStatus} other status, ${r.refused} refused`,
    `  restarted after the kill and took a new event: ${r.restarted ? 'yes' : 'NO'}`,
    ...(r.missing.length > 0 ? [`  missing ids: ${r.missing.join(', ')}`] : []),
  ].join('\n');
}

/** Starts a page session of the lead; `headers` are added to the request (an X-Forwarded-For). */
export async function startSession(
  url: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await fetch(`${url}/api/funnel/track/page`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ token, startReason: 'INITIAL_LOAD', details: { sessionCount: 1 } }),
  });
  const body = (await response.json()) as { data?: { idTrackingPageSession?: string } | null };
  const id = body.data?.idTrackingPageSession;
  if (response.status !== 200 || id === undefined) {
    throw new Error(`could not start a page session: ${response.status} ${JSON.stringify(body)}`);
  }
  return id;
}

/** Sends one event and says what became of it; `headers` are added to the request. */
export async function send(
  url: string,
  kind: 'video' | 'action',
  session: Session,
  clientEventId: string,
  seq: number,
  headers: Record<string, string> = {},
): Promise<'acknowledged' | 'unanswered' | 'otherStatus' | 'refused'> {
  const now = Date.now();
  const body =
    kind === 'video'
      ? {
          token: session.token,
          eventId: clientEventId,
          idTrackingPageSession: session.sessionId,
          startViewTime: now - 1000,
          endViewTime: now,
          startTimeVideo: seq % 600,
          endTimeVideo: (seq % 600) + 1,
          details: { videoDuration: 601, reproductionTime: 1000, state: 'PROGRESS' },
        }
      : {
          token: session.token,
          eventId: clientEventId,
          idTrackingPageSession: session.sessionId,
          action: 'CLICK_BUTTON',
          timestamp: now,
          details: { seq },
        };
  let response: Response;
  try {
    response = await fetch(`${url}/api/funnel/track/${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  } catch {
    return 'unanswered';
  }
  if (response.status < 200 || response.status > 299) {
    await response.arrayBuffer().catch(() => undefined);
    return 'otherStatus';
  }
  // The status line is the acknowledgement; a body cut by the kill still counts as acknowledged.
  const answer = (await response.json().catch(() => ({}))) as { result?: unknown };
  return answer.result === false ? 'refused' : 'acknowledged';
}

async function cli(): Promise<void> {
  const { values } = parseArgs({
    options: {
      database: { type: 'string' },
      seconds: { type: 'string', default: '3' },
      'min-acknowledged': { type: 'string', default: '0' },
      clients: { type: 'string', default: '50' },
      keep: { type: 'boolean', default: false },
    },
  });
  const seconds = Number(values.seconds);
  const clients = Number(values.clients);
  const minAcknowledged = Number(values['min-acknowledged']);
  if (!(seconds > 0) || !Number.isInteger(clients) || clients < 1 || !(minAcknowledged >= 0)) {
    throw new Error(
      '--seconds takes a positive number, --clients a positive whole number, --min-acknowledged a count',
    );
  }
  const result = await runDurability({
    ...(values.database === undefined ? {} : { database: values.database }),
    seconds,
    clients,
    minAcknowledged,
    keep: values.keep,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${formatResult(result)}\n`);
  process.exitCode = result.lost === 0 && result.acknowledged > 0 && result.restarted ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli().catch((error: unknown) => {
    process.stderr.write(`tracking-durability: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
