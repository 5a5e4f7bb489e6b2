import type { Catalog, MessageKey } from './catalog';

export type MessageVars = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{(\w+)\}/g;

// Not Object.hasOwn: older phone browsers (iOS < 15.4) lack it and the bundle targets es2020.
const has = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/**
 * The text for `key` in `catalog`, with every `{var}` replaced from `vars`; placeholders without a
 * value stay as they are. Never throws: an unknown key (from untyped callers), or no catalogue at
 * all, comes back as the key itself.
 */
export function formatMessage(catalog: Catalog | null, key: MessageKey, vars?: MessageVars): string {
  const message = catalog && has(catalog, key) ? catalog[key] : key;
  if (!vars) return message;
  return message.replace(PLACEHOLDER, (placeholder, name: string) =>
    has(vars, name) ? String(vars[name]) : placeholder,
  );
}
