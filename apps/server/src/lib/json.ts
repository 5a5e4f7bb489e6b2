import type { z } from 'zod';

/** Reads a JSON column through its schema, so a row is never trusted blindly. */
export function readJson<T extends z.ZodType>(schema: T, text: string): z.infer<T> {
  return schema.parse(JSON.parse(text));
}

/** The string with every lone surrogate replaced by U+FFFD (String#toWellFormed, ES2024). */
export function wellFormed(value: string): string {
  return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * JSON text for a PostgreSQL `jsonb` parameter. `JSON.stringify` writes a lone surrogate as an escape
 * (`\udc00`) that jsonb refuses, where a bind parameter's text had it replaced by U+FFFD on its way
 * to UTF-8: the same replacement is made here, so such text is stored as it was.
 */
export function jsonbText(value: unknown): string {
  const text = JSON.stringify(value);
  // Only a lone surrogate is written as \ud…; an escaped backslash before "ud" just takes the long way.
  if (!text.includes('\\ud')) return text;
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? wellFormed(item) : item));
}

export const toBool = (value: number | null): boolean => value === 1;
export const fromBool = (value: boolean): number => (value ? 1 : 0);

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on the year has five digits, which Date writes with a sign. */
const YEAR_10000_MS = 253_402_300_800_000;
/** "YYYY-MM-DDT" of the days formatted lately: a page of leads comes from a few days. */
const dayTexts = new Map<number, string>();
const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * A stored time (ms since the epoch, UTC) as ISO 8601 text, exactly as `Date#toISOString` writes it.
 * Date's own formatting costs about 0.45 µs, and a page of the owner's leads table formats fifty; the
 * day's part is formatted by Date once and kept, the time of day by arithmetic (a seventh of the cost).
 */
export function toIso(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let dayText = dayTexts.get(day);
  if (dayText === undefined) {
    dayText = new Date(day * DAY_MS).toISOString().slice(0, 11);
    if (dayTexts.size >= 4096) dayTexts.clear();
    dayTexts.set(day, dayText);
  }
  const time = ms - day * DAY_MS;
  const milli = time % 1000;
  const milliText = milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : `${milli}`;
  return `${dayText}${twoDigits(Math.floor(time / 3_600_000))}:${twoDigits(Math.floor(time / 60_000) % 60)}:${twoDigits(Math.floor(time / 1000) % 60)}.${milliText}Z`;
}
