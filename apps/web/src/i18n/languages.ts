/** Page languages; `es` is the default (spec §1, §9). Same values as `Language` in @embudo/contracts. */
export const LANGUAGES = ['es', 'pt', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';

const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/**
 * The page language from a configured value: trimmed and lower-cased (spec §2.2), a region suffix
 * ignored ('pt-BR' → 'pt'), anything else → es.
 */
export function resolveLanguage(value: string | null | undefined): Language {
  if (typeof value !== 'string') return DEFAULT_LANGUAGE;
  const code = value.trim().toLowerCase();
  if (isLanguage(code)) return code;
  const primary = code.split(/[-_]/, 1)[0] ?? '';
  return isLanguage(primary) ? primary : DEFAULT_LANGUAGE;
}
