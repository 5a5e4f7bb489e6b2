/**
 * Throw-away databases for scripts that run the real server: a fresh SQLite file or a fresh PostgreSQL
 * schema, the demo seeded into it, and the count of acknowledged events that made it to disk.
 * Used by scripts/tracking-durability.ts and npm run bench.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_BASE_DOMAINS } from '@embudo/contracts';
import { adminQuery } from '../../apps/server/test/databases';
import { migrate, openDatabase } from '../../apps/server/src/db';
import { dialectOf, type Dialect } from '../../apps/server/src/db/dialect';
import { hashToken } from '../../apps/server/src/lib/tokens';
import { seedDemo } from '../../apps/server/src/modules/demo/demo.seed';
import { createRepos, createServices } from '../../apps/server/src/services';

export interface ScratchDatabase {
  url: string;
  dialect: Dialect;
  /** Where the data is, safe to print (no password). */
  label: string;
  cleanup: () => Promise<void>;
}

/**
 * `database` undefined: a new SQLite file in a new temporary directory. `sqlite:…`: that file, as is.
 * `postgres://…`: a new schema in that database, named after `name`. Unless `keep`, cleanup removes
 * what was made.
 */
export async function prepareDatabase(
  database: string | undefined,
  keep: boolean,
  name = 'durability',
): Promise<ScratchDatabase> {
  if (database === undefined || dialectOf(database) === 'sqlite') {
    const dir = database === undefined ? mkdtempSync(join(tmpdir(), `embudo-${name}-`)) : null;
    const url = database ?? `sqlite:${join(dir ?? '', `${name}.db`)}`;
    return {
      url,
      dialect: 'sqlite',
      label: url,
      cleanup: () => {
        if (dir && !keep) rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const schema = `${name}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(database, `create schema ${schema}`);
  const url = new URL(database);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    dialect: 'postgres',
    label: `postgres://${url.host}${url.pathname} (schema ${schema})`,
    cleanup: async () => {
      if (!keep) await adminQuery(database, `drop schema if exists ${schema} cascade`);
    },
  };
}

export interface SeededLead {
  /** The account's slug, the first segment of the lead's link on a base domain. */
  slug: string;
  token: string;
  leadId: string;
  accountId: string;
  funnelId: string;
  /** The funnel's first page, where a new lead starts. */
  firstPageId: string | null;
}

/**
 * Seeds the demo in-process (the server seeds it again on start: idempotent) and names every lead, the
 * first being the first lead of the demo's video sales letter funnel.
 */
export async function seedDemoLeads(databaseUrl: string, publicUrl: string): Promise<SeededLead[]> {
  const database = openDatabase(databaseUrl);
  try {
    await migrate(database);
    const services = await createServices(database, {
      publicUrl,
      baseDomains: [...DEV_BASE_DOMAINS],
      geoDatabase: 'off',
    });
    const demo = await seedDemo(services, publicUrl);
    const repos = createRepos(database);
    const tokens = [demo, ...demo.otherAccounts].flatMap((a) =>
      a.funnels.flatMap((f) => f.leads.map((l) => ({ slug: a.accountSlug, token: l.token }))),
    );
    const leads: SeededLead[] = [];
    for (const { slug, token } of tokens) {
      const row = await repos.leads.findByTokenHash(hashToken(token));
      if (!row) throw new Error('a seeded demo lead is missing');
      const firstPage = await repos.pages.findFirstRef(row.funnelId);
      leads.push({
        slug,
        token,
        leadId: row.id,
        accountId: row.accountId,
        funnelId: row.funnelId,
        firstPageId: firstPage?.id ?? null,
      });
    }
    return leads;
  } finally {
    await database.close();
  }
}

/** An event the server acknowledged, by the id it is stored under. */
export interface AcknowledgedEvent {
  /** `sessionEnd`: the end of the page session `id`, stored on that session's row. */
  kind: 'video' | 'action' | 'session' | 'sessionEnd';
  id: string;
}

export interface StoredCount {
  /** Acknowledged events found in the database. */
  stored: number;
  /** Ids of acknowledged events that are missing, at most 20. */
  missing: string[];
  /** Rows of the event tables, acknowledged or not. */
  rows: { videoRecords: number; actions: number; pageSessions: number };
}

const TABLES = {
  video: 'videoRecords',
  action: 'actions',
  session: 'pageSessions',
  sessionEnd: 'pageSessions',
} as const;

/** Looks every acknowledged event up by its stored id. */
export async function countStored(
  databaseUrl: string,
  acknowledged: readonly AcknowledgedEvent[],
): Promise<StoredCount> {
  const database = openDatabase(databaseUrl);
  try {
    const { db } = database;
    let stored = 0;
    const missing: string[] = [];
    for (const kind of ['video', 'action', 'session', 'sessionEnd'] as const) {
      const table = TABLES[kind];
      const ids = acknowledged.filter((a) => a.kind === kind).map((a) => a.id);
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const rows =
          kind === 'sessionEnd'
            ? // An acknowledged end is one the server stored, not one it inferred later.
              await db
                .selectFrom('pageSessions')
                .select('id')
                .where('id', 'in', chunk)
                .where('endAt', 'is not', null)
                .where('endInferred', '=', 0)
                .execute()
            : await db.selectFrom(table).select('id').where('id', 'in', chunk).execute();
        const found = new Set(rows.map((r) => r.id));
        stored += found.size;
        for (const id of chunk)
          if (!found.has(id) && missing.length < 20)
            missing.push(`${table}${kind === 'sessionEnd' ? '(end)' : ''}/${id}`);
      }
    }
    const count = async (table: 'videoRecords' | 'actions' | 'pageSessions') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      stored,
      missing,
      rows: {
        videoRecords: await count('videoRecords'),
        actions: await count('actions'),
        pageSessions: await count('pageSessions'),
      },
    };
  } finally {
    await database.close();
  }
}
