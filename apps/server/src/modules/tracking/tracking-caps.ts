/**
 * How much one lead link can make the server store (issue 16, item 4). Before these caps a lead link
 * stored whatever it was sent: 75 MB a minute from one address within the rate limit. Each number is
 * far beyond what a real visitor's page sends (apps/web: video-tracker.ts, use-page-actions.ts,
 * SessionProvider.tsx), so no visitor meets one; together with the size caps of the free-form details
 * (contracts, TRACKING_DETAILS_MAX) they bound a lead at about 25 MB a day: 200 sessions of at most
 * 2 × 16 KB of device details, 2,000 actions of at most 4 KB, 16,000 video records of under 0.5 KB.
 *
 * Beyond a cap the call is answered 200 with result false and TRACKING_LIMIT_REACHED, and nothing is
 * stored: the page carries on as after any other answer. Not a 429: the page's client throws on any
 * non-2xx answer, and a session it cannot start stops its flow (it waits for a session before it loads
 * the next page), so a 429 would break the page of the one visitor a cap could ever meet, and invite
 * retries besides. The acknowledgement still never claims what did not happen: result false, like
 * TRACKING_CLOSED, says that nothing was stored. A session start beyond its cap still answers an id, so
 * that the page goes on; what is sent for that id later is answered SESSION_NOT_FOUND, and stored nowhere.
 */
export const TRACKING_CAPS = {
  /**
   * Page sessions a lead starts in 24 hours. The page starts one on every load, page change and return
   * after 15 idle minutes: a lead who opens the link 50 times in a day and goes through three pages
   * each time starts 150.
   */
  sessionsPerLead: 200,
  /**
   * Actions of one page session. The page sends one for each use of its button, which shows once per
   * page: a handful in a session.
   */
  actionsPerSession: 200,
  /**
   * Video records of one page session. The page reports play, pause, the 25, 50 and 75 % marks, each
   * seek, and every 30 s for some players: a 3-hour video reporting every 3 s would send 3,600.
   */
  videoRecordsPerSession: 4000,
  /** Actions of a lead in 24 hours: ten sessions' worth. */
  actionsPerLead: 2000,
  /** Video records of a lead in 24 hours: four sessions' worth, twelve hours of video. */
  videoRecordsPerLead: 16_000,
} as const;

/** The 24 hours the caps of a lead count over. */
export const CAP_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How long a count read from the database is used before it is read again (when no write of it is in
 * flight): what other processes stored shows within this time, and the 24-hour window moves on.
 */
export const COUNT_REFRESH_MS = 60_000;

type Counts = Record<string, number>;

interface Entry {
  key: string;
  /** What the database held when last read. */
  base: Counts;
  /** What this process admitted since: in flight or committed. A write that fails gives its place back. */
  admitted: Counts;
  /** Writes admitted and not settled yet. The counts are read again only when there are none. */
  inFlight: number;
  readAt: number;
  reading: Promise<void> | null;
  usedAt: number;
}

/**
 * Counts of one scope (a page session, a lead), per key, held in this process with the database as
 * the truth: a key's counts are read from the database the first time it is seen, and again after
 * COUNT_REFRESH_MS when none of its writes is in flight; in between, this process adds what it admits.
 * Keys unused for COUNT_REFRESH_MS are forgotten, so memory holds the keys in use.
 */
export interface CountScope {
  /** The key's entry, marked as used now. */
  entry(key: string): Entry;
  /**
   * Takes counts this process knows without reading (a session it has just started has none), for a
   * key it holds no entry of; read again after COUNT_REFRESH_MS as any.
   */
  seed(key: string, counts: Counts): void;
  /** Reads the entry's counts again if they are missing or old: null when they are fresh. */
  refresh(entry: Entry): Promise<void> | null;
  sweep(): void;
}

export function countScope(
  read: (key: string, now: number) => Promise<Counts>,
  now: () => number,
): CountScope {
  const entries = new Map<string, Entry>();
  let sweptAt = now();
  return {
    entry(key) {
      const at = now();
      let entry = entries.get(key);
      if (!entry) {
        entry = { key, base: {}, admitted: {}, inFlight: 0, readAt: -Infinity, reading: null, usedAt: at };
        entries.set(key, entry);
      }
      entry.usedAt = at;
      return entry;
    },
    seed(key, counts) {
      if (entries.has(key)) return;
      const at = now();
      entries.set(key, {
        key,
        base: counts,
        admitted: {},
        inFlight: 0,
        readAt: at,
        reading: null,
        usedAt: at,
      });
    },
    refresh(entry) {
      if (entry.reading) return entry.reading;
      const at = now();
      if (entry.inFlight > 0 || at - entry.readAt < COUNT_REFRESH_MS) return null;
      // Nothing of this key is in flight: what the database holds includes all this process admitted.
      const reading = read(entry.key, at).then(
        (counts) => {
          entry.base = counts;
          entry.admitted = {};
          entry.readAt = at;
          entry.reading = null;
        },
        (error: unknown) => {
          entry.reading = null;
          throw error;
        },
      );
      entry.reading = reading;
      return reading;
    },
    sweep() {
      const at = now();
      if (at - sweptAt < COUNT_REFRESH_MS) return;
      sweptAt = at;
      for (const [key, entry] of entries)
        if (entry.inFlight === 0 && entry.reading === null && at - entry.usedAt > COUNT_REFRESH_MS)
          entries.delete(key);
    },
  };
}

/** One count an event adds to, and the most it may reach. */
export interface Claim {
  scope: CountScope;
  key: string;
  kind: string;
  cap: number;
}

const countOf = (entry: Entry, kind: string): number => (entry.base[kind] ?? 0) + (entry.admitted[kind] ?? 0);

/**
 * Admits an event if every count it adds to is below its cap, and holds its place in each. Exact
 * within this process however many requests arrive at once: once the counts are fresh, the check and
 * the hold happen together, with nothing awaited between them. Several processes on one PostgreSQL
 * database each hold their own counts, read from the database every COUNT_REFRESH_MS: a flood spread
 * over n processes at once can store up to n times a cap before they see each other's rows, no more.
 * Returns null at a cap; otherwise `settle`, to call once the write committed (true) or failed (false).
 */
export async function admit(claims: readonly Claim[]): Promise<((committed: boolean) => void) | null> {
  for (const claim of claims) claim.scope.sweep();
  for (;;) {
    const waits = claims.map((c) => c.scope.refresh(c.scope.entry(c.key))).filter((wait) => wait !== null);
    if (waits.length === 0) break;
    await Promise.all(waits);
  }
  const held = claims.map((claim) => ({
    kind: claim.kind,
    cap: claim.cap,
    entry: claim.scope.entry(claim.key),
  }));
  if (held.some(({ entry, kind, cap }) => countOf(entry, kind) >= cap)) return null;
  for (const { entry, kind } of held) {
    entry.admitted[kind] = (entry.admitted[kind] ?? 0) + 1;
    entry.inFlight += 1;
  }
  return (committed) => {
    for (const { entry, kind } of held) {
      entry.inFlight -= 1;
      if (!committed) entry.admitted[kind] = (entry.admitted[kind] ?? 1) - 1;
    }
  };
}
