/** Page languages; `es` is the default (visitor-behaviour §1, §9). Same values as `Language` in @embudo/contracts. */
export const LANGUAGES = ['es', 'pt', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';

const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/**
 * The page language from a configured value: trimmed and lower-cased (visitor-behaviour §2.2), a region suffix
 * ignored ('pt-BR' → 'pt'), anything else → es.
 */
export function resolveLanguage(value: string | null | undefined): Language {
  if (typeof value !== 'string') return DEFAULT_LANGUAGE;
  const code = value.trim().toLowerCase();
  if (isLanguage(code)) return code;
  const primary = code.split(/[-_]/, 1)[0] ?? '';
  return isLanguage(primary) ? primary : DEFAULT_LANGUAGE;
}

/**
 * The visitor's language from an `Accept-Language` header ("pt-BR,pt;q=0.9,en;q=0.8"): the
 * supported language the browser ranks highest, by q-value and then by order; es when none is
 * supported. For pages no funnel's language applies to, such as a not-found address.
 */
export function preferredLanguage(acceptLanguage: string | null | undefined): Language {
  if (typeof acceptLanguage !== 'string') return DEFAULT_LANGUAGE;
  let best: { language: Language; q: number } | null = null;
  for (const part of acceptLanguage.slice(0, 1024).split(',')) {
    const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
    const primary = tag.toLowerCase().split('-', 1)[0] ?? '';
    if (!isLanguage(primary)) continue;
    const qParam = params.find((param) => /^q=/i.test(param));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (best === null || q > best.q) best = { language: primary, q };
  }
  return best?.language ?? DEFAULT_LANGUAGE;
}
