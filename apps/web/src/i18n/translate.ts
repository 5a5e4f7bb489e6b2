import { CATALOGS, DEFAULT_LANGUAGE, LANGUAGES, type Language, type MessageKey } from './catalog';

export type MessageVars = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{(\w+)\}/g;

// Not Object.hasOwn: older phone browsers (iOS < 15.4) lack it and the bundle targets es2020.
const has = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

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

/**
 * The text for `key` in `language` (es when unknown or empty), with every `{var}` replaced from
 * `vars`; placeholders without a value stay as they are. Never throws: an unknown key (from
 * untyped callers) comes back as the key itself.
 */
export function translate(language: string | null | undefined, key: MessageKey, vars?: MessageVars): string {
  const catalog = CATALOGS[resolveLanguage(language)];
  const message = has(catalog, key) ? catalog[key] : key;
  if (!vars) return message;
  return message.replace(PLACEHOLDER, (placeholder, name: string) =>
    has(vars, name) ? String(vars[name]) : placeholder,
  );
}
