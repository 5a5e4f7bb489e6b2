import type { VisitorContextChanges } from './visitor-context';

/** The most rows one kept read holds; past it, it forgets them all at once. */
const MAX_KEPT = 20_000;

export interface KeptRead<Row> {
  read: (key: string) => Promise<Row | undefined>;
  /**
   * Keeps a row that the caller knows to be what the read would return, if no change was heard since
   * `since` (the feed's generation when the caller began to learn it).
   */
  keep: (key: string, row: Row, since: number) => void;
}

/**
 * A read by key whose rows are kept in memory until a change to them is heard (decision 42): a kept row
 * is used only after `changes.sync()`, so a lookup never answers from a row that a change committed
 * before it was asked has made wrong, as if it had read. `leadOf` names the lead whose changes drop a
 * row (null: only a change to any lead does). Only found rows are kept: a key with no row is read
 * again each time.
 */
export function keptReads<Row>(
  changes: VisitorContextChanges,
  read: (key: string) => Promise<Row | undefined>,
  leadOf: (row: Row) => string | null,
): KeptRead<Row> {
  const rows = new Map<string, Row>();
  const keysOfLead = new Map<string, string[]>();
  const forgetAll = () => {
    rows.clear();
    keysOfLead.clear();
  };
  changes.onChange((leadId) => {
    if (leadId === null) {
      forgetAll();
      return;
    }
    for (const key of keysOfLead.get(leadId) ?? []) rows.delete(key);
    keysOfLead.delete(leadId);
  });
  function keep(key: string, row: Row, since: number) {
    // A change heard meanwhile may have come after what the row says.
    if (changes.generation !== since) return;
    if (rows.size >= MAX_KEPT) forgetAll();
    rows.set(key, row);
    const lead = leadOf(row);
    if (lead === null) return;
    const keys = keysOfLead.get(lead);
    if (keys === undefined) keysOfLead.set(lead, [key]);
    else keys.push(key);
  }
  return {
    read: async (key) => {
      const synced = await changes.sync();
      if (synced) {
        const kept = rows.get(key);
        if (kept !== undefined) return kept;
      }
      const generation = changes.generation;
      const row = await read(key);
      if (synced && row !== undefined) keep(key, row, generation);
      return row;
    },
    keep,
  };
}
