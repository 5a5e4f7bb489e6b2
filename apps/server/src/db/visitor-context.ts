import pg from 'pg';
import type { Db } from './index';
import { reusableQuery } from './reusable-query';

/**
 * What changed in what visitor calls check (migration 0015's triggers), heard by this process
 * (decision 42): the id of a lead whose own rows changed, or null when any lead's may have (an
 * account's status, a page, a deletion).
 */
export type ChangeListener = (leadId: string | null) => void;

export interface VisitorContextChanges {
  /**
   * Resolves once every change committed before the call has reached the listeners: true; false when
   * that cannot be known now (PostgreSQL's listening connection is down), and nothing kept may be used.
   * Calls made during one round of requests share one check, made when the round is done.
   */
  sync(): Promise<boolean>;
  /** Counts the changes heard: a read begun before a change must not be kept after it. */
  readonly generation: number;
  onChange(listener: ChangeListener): void;
  close(): Promise<void>;
}

const CHANNEL = 'embudo_visitor_context';
/** How often SQLite's change rows already read are deleted. */
const PRUNE_EVERY_MS = 60_000;
const RECONNECT_MS = 1_000;
/** How long a round waits for the listening connection's answer before it gives that connection up. */
const CHECK_TIMEOUT_MS = 2_000;

/** The shared part: listeners, the generation, one check per round of requests. */
function changeFeed(check: () => Promise<boolean>, stop: () => Promise<void>) {
  const listeners: ChangeListener[] = [];
  let generation = 0;
  let round: Promise<boolean> | null = null;
  const feed = {
    get generation() {
      return generation;
    },
    onChange(listener: ChangeListener) {
      listeners.push(listener);
    },
    sync() {
      // After the event loop's poll phase, as the gathered reads (db/batched-read.ts): every call of
      // the round is checked by one read made after all of them were asked.
      round ??= new Promise<boolean>((resolve) => {
        setImmediate(() => {
          round = null;
          resolve(check().catch(() => false));
        });
      });
      return round;
    },
    close: stop,
  };
  const changed = (leadId: string | null) => {
    generation += 1;
    for (const listener of listeners) listener(leadId);
  };
  return { feed: feed satisfies VisitorContextChanges, changed };
}

/**
 * SQLite: one process; the triggers write a row per change (whoever writes: the CLI too), read once per
 * round of requests. SQLite commits one writer at a time, so the rows appear in the order of `seq`.
 */
export function sqliteContextChanges(db: Db): VisitorContextChanges {
  let last = 0;
  let prunedAt = Date.now();
  const changesAfter = reusableQuery(db, ['after'], ({ after }) =>
    db.selectFrom('visitorContextChanges').select(['seq', 'leadId']).where('seq', '>', after).orderBy('seq'),
  );
  const { feed, changed } = changeFeed(
    async () => {
      const rows = await changesAfter({ after: last });
      for (const row of rows) {
        last = row.seq;
        changed(row.leadId);
      }
      if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = Date.now();
        await db.deleteFrom('visitorContextChanges').where('seq', '<=', last).execute();
      }
      return true;
    },
    () => {
      clearInterval(sweeper);
      return Promise.resolve();
    },
  );
  // The rows are deleted by the check; a server that gets no visitor calls checks once a minute, so
  // that they do not pile up.
  const sweeper = setInterval(() => void feed.sync(), PRUNE_EVERY_MS);
  sweeper.unref();
  return feed;
}

/**
 * PostgreSQL: the triggers notify at commit; every process listens on a connection of its own. A
 * round's check is a query on that connection: PostgreSQL sends the notifications committed before it
 * ahead of its answer, so when it is answered they have all been heard. While that connection is
 * down nothing kept is used, and everything kept is dropped when it is back.
 */
export function postgresContextChanges(config: pg.ClientConfig): VisitorContextChanges {
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client | null> | null = null;
  let schema = '';
  const state = { closed: false };
  let retryAt = 0;
  const { feed, changed } = changeFeed(
    async () => {
      const listening = client ?? (await connect());
      if (listening === null) return false;
      // A connection that stops answering is given up on, as one that closed: calls read meanwhile.
      let timer: NodeJS.Timeout | undefined;
      const answered = await Promise.race([
        listening.query('select 1').then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => {
            resolve(false);
          }, CHECK_TIMEOUT_MS);
        }),
      ]).finally(() => {
        clearTimeout(timer);
      });
      if (!answered) lost(listening);
      return answered && client === listening;
    },
    async () => {
      state.closed = true;
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  );

  function lost(which: pg.Client) {
    if (client !== which) return;
    client = null;
    retryAt = Date.now() + RECONNECT_MS;
    changed(null);
    void which.end().catch(() => undefined);
  }

  function connect(): Promise<pg.Client | null> {
    if (state.closed || Date.now() < retryAt) return Promise.resolve(null);
    connecting ??= (async () => {
      const next = new pg.Client(config);
      next.on('error', () => {
        lost(next);
      });
      next.on('end', () => {
        lost(next);
      });
      next.on('notification', (message) => {
        if (message.channel !== CHANNEL || message.payload === undefined) return;
        const space = message.payload.indexOf(' ');
        if (message.payload.slice(0, space) !== schema) return;
        const lead = message.payload.slice(space + 1);
        changed(lead === '*' ? null : lead);
      });
      try {
        await next.connect();
        schema =
          (await next.query<{ schema: string }>('select current_schema() as schema')).rows[0]?.schema ?? '';
        await next.query(`listen ${CHANNEL}`);
        // Closed while it connected.
        if (state.closed) {
          await next.end();
          return null;
        }
        // What changed while nobody listened is unknown: everything kept goes.
        changed(null);
        client = next;
        return next;
      } catch {
        retryAt = Date.now() + RECONNECT_MS;
        await next.end().catch(() => undefined);
        return null;
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  }
  return feed;
}
