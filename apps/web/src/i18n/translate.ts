import { CATALOGS, type MessageKey } from './catalog';
import { formatMessage, type MessageVars } from './format';
import { resolveLanguage } from './languages';

export type { MessageVars } from './format';
export { resolveLanguage } from './languages';

/**
 * The text for `key` in `language` (es when unknown or empty), with every `{var}` replaced from
 * `vars`; placeholders without a value stay as they are. Never throws: an unknown key (from
 * untyped callers) comes back as the key itself. It holds every catalogue: for the server and
 * tests; the browser reads its catalogue through `I18nProvider`.
 */
export function translate(language: string | null | undefined, key: MessageKey, vars?: MessageVars): string {
  return formatMessage(CATALOGS[resolveLanguage(language)], key, vars);
}
