/**
 * The words a lead is found by (decision 22): each kept in `lead_search_terms`, so that a search is a
 * range over an index, never a scan. Terms are lower-case and without accents; a search matches a
 * lead when one of its terms starts with the search, normalised the same way.
 */

/** Characters of a term kept; a longer search is cut to this and still finds what starts with it. */
export const TERM_CHARS = 64;

/** Lower-case, accents and other combining marks removed, runs of non-letters and non-digits as one space. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}@._+-]+/gu, ' ')
    .trim();
}

const cut = (term: string) => term.slice(0, TERM_CHARS);

/** Words of a name that start a term of their own; later words are found inside the sixth's term. */
const NAME_WORDS = 6;

/** The most terms one lead has: one per name word kept, its e-mail and its phone. */
export const MAX_TERMS_PER_LEAD = NAME_WORDS + 2;

/**
 * A lead's terms: for its name, the name from each word on ("ana maria lopez", "maria lopez",
 * "lopez", so that a search finds the start of any word and may go on into the next; the first six
 * words each start one); its e-mail, lower-case; its phone's digits.
 */
export function searchTerms(lead: { name: string; email: string | null; phone: string | null }): string[] {
  const terms = new Set<string>();
  const words = normaliseText(lead.name)
    .split(/[\s@._+-]+/)
    .filter((word) => word !== '');
  for (let i = 0; i < Math.min(words.length, NAME_WORDS); i += 1) terms.add(cut(words.slice(i).join(' ')));
  const email = lead.email?.trim().toLowerCase();
  if (email) terms.add(cut(email.normalize('NFD').replace(/\p{M}+/gu, '')));
  const digits = lead.phone?.replace(/\D+/g, '');
  if (digits) terms.add(cut(digits));
  return [...terms];
}

/**
 * What a search looks for: its name-like reading (words joined by one space) and, when it holds
 * digits and only phone punctuation, its digits. Empty when nothing is left to look for.
 */
export function searchPrefixes(search: string): string[] {
  const prefixes = new Set<string>();
  const lowered = search
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
  if (lowered.includes('@')) prefixes.add(cut(lowered));
  const words = normaliseText(search)
    .split(/[\s@._+-]+/)
    .filter((word) => word !== '');
  if (words.length > 0) prefixes.add(cut(words.join(' ')));
  if (/^[\d\s()+.-]+$/.test(search.trim())) {
    const digits = search.replace(/\D+/g, '');
    if (digits) prefixes.add(cut(digits));
  }
  // An e-mail's start without '@' ("ana.lopez") is found by its exact text too.
  if (!lowered.includes('@') && /^[\p{L}\p{N}._+-]+$/u.test(lowered)) prefixes.add(cut(lowered));
  return [...prefixes].filter((prefix) => prefix !== '');
}

/**
 * The least string greater than every string starting with `prefix`: the prefix with its last code
 * point raised by one. Terms are compared byte by byte (UTF-8 keeps code point order), so
 * `term >= prefix and term < upperBound(prefix)` is exactly "starts with".
 */
export function upperBound(prefix: string): string {
  if (prefix === '') return '\u{10FFFF}';
  // The last code point starts one unit earlier when it is a surrogate pair.
  const lastUnit = prefix.charCodeAt(prefix.length - 1);
  const start =
    lastUnit >= 0xdc00 && lastUnit <= 0xdfff && prefix.length >= 2 ? prefix.length - 2 : prefix.length - 1;
  const next = (prefix.codePointAt(start) ?? 0) + 1;
  // Past the surrogates: a code point, never half of one.
  return prefix.slice(0, start) + String.fromCodePoint(next === 0xd800 ? 0xe000 : next);
}
