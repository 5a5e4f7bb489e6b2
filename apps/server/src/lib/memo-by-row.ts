/** What an entry costs beside the bytes of its contents: the map's slot, the entry, small objects. */
export const ENTRY_OVERHEAD_BYTES = 256;

/**
 * An estimate of the bytes that keeping these texts (and what was made of them) takes: two bytes a
 * character, as V8 stores any text with a character past U+00FF, plus an entry's overhead. It never
 * reads the texts, only their lengths.
 */
export function textBytes(...texts: readonly (string | null | undefined)[]): number {
  let chars = 0;
  for (const text of texts) chars += text?.length ?? 0;
  return ENTRY_OVERHEAD_BYTES + 2 * chars;
}

interface Entry<V> {
  version: string | number;
  value: V;
  bytes: number;
}

/**
 * A cache bounded by bytes: entries are found by a key (an id) and are good only at the version they
 * were stored with (a content version, a time of change). What each entry holds is counted by the
 * caller's estimate; past `maxBytes`, the least recently used entries are dropped, and an entry larger
 * than the whole budget is not kept at all. The values are shared between requests: never mutate them.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** The value stored under `key` at exactly `version`; an entry at another version is dropped. */
  get(key: string, version: string | number): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.version !== version) {
      this.delete(key);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` under `key` at `version`, in place of whatever the key held, within the budget. */
  set(key: string, version: string | number, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { version, value, bytes });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }

  /** The estimated bytes of what is kept now: never more than `maxBytes`. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface MemoByIdOptions<Row> {
  /** The row's id: one entry per id, whatever versions of the row were seen. */
  id: (row: Row) => string;
  /** What changes whenever the row changes (a version, a time of change, the mutable columns). */
  version: (row: Row) => string | number;
  /** The estimated bytes of the row's conversion (textBytes of its texts is enough). */
  bytes: (row: Row) => number;
  maxBytes: number;
}

/**
 * Remembers what a pure conversion (parsing stored JSON through its schema) made of a row, by the
 * row's id and version, so a row read again unchanged is not converted again and a changed one is.
 * At most one version of a row is kept, and all of them within `maxBytes`. Failures are not kept.
 */
export function memoById<Row, Out>(
  convert: (row: Row) => Out,
  options: MemoByIdOptions<Row>,
): ((row: Row) => Out) & { cache: BoundedCache<Out> } {
  const cache = new BoundedCache<Out>(options.maxBytes);
  const memo = (row: Row): Out => {
    const id = options.id(row);
    const version = options.version(row);
    const known = cache.get(id, version);
    if (known !== undefined) return known;
    const converted = convert(row);
    cache.set(id, version, converted, options.bytes(row));
    return converted;
  };
  return Object.assign(memo, { cache });
}
