/** localStorage key of the visit counter (visitor-behaviour §3 "Browser storage"): JSON {count, lastVisit}. */
export const VISIT_COUNTER_KEY = 'embudo_visit_counter';
/** localStorage key of the generated device id (visitor-behaviour §9 "Device id form"). */
export const DEVICE_ID_KEY = 'embudo_device_id';

/** Our device id form: `device_` + epoch milliseconds + `_` + a random alphanumeric string. */
const DEVICE_ID_FORM = /^device_\d{1,16}_[A-Za-z0-9]{1,64}$/;

export interface Visit {
  /** This visit's number: 1 on the first visit of this browser. */
  count: number;
  visitorType: 'NEW' | 'RETURNING';
  /** When the visit before this one was, epoch milliseconds; null on a first visit. */
  lastVisit: number | null;
}

/** Storage that throws (private mode, blocked cookies) reads as empty. */
function read(storage: Storage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: Storage | null, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // Full or blocked storage: the next page load starts over, which is all a private window can have.
  }
}

/** The stored counter, or null when there is none or it cannot be used (a bad one is reported). */
function storedCounter(storage: Storage | null): { count: number; lastVisit: number | null } | null {
  const stored = read(storage, VISIT_COUNTER_KEY);
  if (stored === null) return null;
  try {
    const value = JSON.parse(stored) as { count?: unknown; lastVisit?: unknown } | null;
    const count = value?.count;
    const lastVisit = value?.lastVisit ?? null;
    if (Number.isSafeInteger(count) && (count as number) >= 0) {
      if (lastVisit === null || (typeof lastVisit === 'number' && Number.isFinite(lastVisit))) {
        return { count: count as number, lastVisit };
      }
    }
    console.warn('bad visit counter, counting from the start', stored);
  } catch (error) {
    console.warn('bad visit counter, counting from the start', error);
  }
  return null;
}

/**
 * Counts a visit (visitor-behaviour §4.3): NEW on this browser's first visit, RETURNING afterwards; the counter
 * goes up by one each call, so call it once per visit (a session started with INITIAL_LOAD). Never
 * throws: without usable storage every visit is a first one.
 */
export function recordVisit(storage: Storage | null, now: number): Visit {
  const previous = storedCounter(storage);
  const before = previous?.count ?? 0;
  const count = before + 1;
  write(storage, VISIT_COUNTER_KEY, JSON.stringify({ count, lastVisit: now }));
  return { count, visitorType: before > 0 ? 'RETURNING' : 'NEW', lastVisit: previous?.lastVisit ?? null };
}

/** 16 hex characters from the browser's random source (which, unlike randomUUID, plain http has too). */
function randomPart(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

/**
 * This browser's device id (visitor-behaviour §9): made once as `device_<now>_<random>`, kept in localStorage and
 * returned unchanged afterwards; a stored value not of that form is replaced. `random` must give
 * letters and digits only.
 */
export function deviceId(storage: Storage | null, now: number, random: () => string = randomPart): string {
  const stored = read(storage, DEVICE_ID_KEY);
  if (stored !== null && DEVICE_ID_FORM.test(stored)) return stored;
  if (stored !== null) console.warn('bad device id, making a new one', stored);
  const id = `device_${Math.floor(now)}_${random()}`;
  write(storage, DEVICE_ID_KEY, id);
  return id;
}
