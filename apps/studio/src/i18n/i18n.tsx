import { LANGUAGES } from '@embudo/contracts';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'es';

const isLanguage = (tag: string): tag is Language => (LANGUAGES as readonly string[]).includes(tag);

/**
 * The Studio's language: the user's own setting, else the first of the browser's languages we speak
 * (by its primary subtag: pt-BR is pt), else Spanish.
 */
export function chooseLanguage(
  userLanguage: Language | null | undefined,
  browserLanguages: readonly string[],
): Language {
  if (userLanguage) return userLanguage;
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split('-')[0] ?? '';
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/** The browser's languages, most preferred first. */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages.length > 0 ? navigator.languages : [navigator.language];
}

/**
 * A feature's messages in every language. Spanish is the reference: Portuguese and English must have
 * exactly its keys, so a missing or stray translation fails typecheck. `{name}` in a message is
 * filled from the values given to `t`.
 */
export type Messages<K extends string> = {
  es: Record<K, string>;
  pt: Record<K, string>;
  en: Record<K, string>;
};

export function defineMessages<const K extends string>(messages: {
  es: Record<K, string>;
  pt: NoInfer<Record<K, string>>;
  en: NoInfer<Record<K, string>>;
}): Messages<K> {
  return messages;
}

export type Translate<K extends string> = (key: K, values?: Record<string, string | number>) => string;

export function format(message: string, values?: Record<string, string | number>): string {
  if (!values) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

interface LanguageState {
  language: Language;
  setLanguage: (language: Language) => void;
}

const LanguageContext = createContext<LanguageState>({
  language: DEFAULT_LANGUAGE,
  setLanguage: () => undefined,
});

export function LanguageProvider({
  language,
  setLanguage,
  children,
}: LanguageState & { children: ReactNode }) {
  const value = useMemo(() => ({ language, setLanguage }), [language, setLanguage]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageState {
  return useContext(LanguageContext);
}

/** A feature's `t`, in the Studio's current language. */
export function useMessages<K extends string>(messages: Messages<K>): Translate<K> {
  const { language } = useLanguage();
  return useCallback(
    (key: K, values?: Record<string, string | number>) => format(messages[language][key], values),
    [messages, language],
  );
}

/** Dates and times as the owner reads them, in the Studio's language. */
export function useFormatDate(): (iso: string | null | undefined, withTime?: boolean) => string {
  const { language } = useLanguage();
  return useCallback(
    (iso, withTime = false) => {
      if (!iso) return '—';
      const date = new Date(iso);
      return new Intl.DateTimeFormat(language, {
        dateStyle: 'medium',
        ...(withTime ? { timeStyle: 'short' } : {}),
      }).format(date);
    },
    [language],
  );
}

export const LANGUAGE_NAMES: Record<Language, string> = { es: 'Español', pt: 'Português', en: 'English' };
export { LANGUAGES };
