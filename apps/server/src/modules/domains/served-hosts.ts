/**
 * Which hosts may have a certificate, kept in memory for Caddy's on-demand TLS (decision 27): it asks
 * on TLS handshakes for hosts it holds no certificate for, so a warm answer must cost no database
 * round trip. Answers (yes and no alike: bots send any name) are kept for a short time, and dropped
 * at once in this process when a domain changes.
 */

/**
 * Domain changes, by host. In one process an in-memory fan-out; several processes need a shared
 * channel (Redis publish/subscribe) behind the same two calls, so that a domain removed through one
 * process loses its certificate permission in all of them at once.
 */
export interface DomainChanges {
  publish(host: string): void;
  subscribe(listener: (host: string) => void): () => void;
}

export function createLocalDomainChanges(): DomainChanges {
  const listeners = new Set<(host: string) => void>();
  return {
    publish(host) {
      for (const listener of listeners) listener(host);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface ServedHostCacheOptions {
  /** The answer from the database. */
  lookup: (host: string) => Promise<boolean>;
  changes: Pick<DomainChanges, 'subscribe'>;
  /** How long an answer is kept; also bounds how late a change made elsewhere is seen. */
  ttlMs?: number;
  /** Hosts kept at most; the oldest answer goes first. */
  maxEntries?: number;
  now?: () => number;
}

export function createServedHostCache({
  lookup,
  changes,
  ttlMs = 30_000,
  maxEntries = 10_000,
  now = Date.now,
}: ServedHostCacheOptions) {
  const answers = new Map<string, { served: boolean; until: number }>();
  const inFlight = new Map<string, Promise<boolean>>();
  // A change drops the host's answer; a lookup already running for it may be older than the change,
  // so it is not kept either.
  const generation = new Map<string, number>();
  changes.subscribe((host) => {
    answers.delete(host);
    inFlight.delete(host);
    generation.set(host, (generation.get(host) ?? 0) + 1);
    if (generation.size > maxEntries) generation.clear();
  });

  return {
    async isServed(host: string): Promise<boolean> {
      const known = answers.get(host);
      if (known && known.until > now()) return known.served;
      const running = inFlight.get(host);
      if (running) return running;
      const startedAt = generation.get(host) ?? 0;
      const asking = lookup(host)
        .then((served) => {
          if ((generation.get(host) ?? 0) === startedAt) {
            answers.delete(host);
            answers.set(host, { served, until: now() + ttlMs });
            if (answers.size > maxEntries) {
              const oldest = answers.keys().next().value;
              if (oldest !== undefined) answers.delete(oldest);
            }
          }
          return served;
        })
        .finally(() => {
          if (inFlight.get(host) === asking) inFlight.delete(host);
        });
      inFlight.set(host, asking);
      return asking;
    },
  };
}
export type ServedHostCache = ReturnType<typeof createServedHostCache>;
