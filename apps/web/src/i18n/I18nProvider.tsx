import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { DEFAULT_LANGUAGE, type Language, type MessageKey } from './catalog';
import { resolveLanguage, translate, type MessageVars } from './translate';

export type Translate = (key: MessageKey, vars?: MessageVars) => string;

const LanguageContext = createContext<Language>(DEFAULT_LANGUAGE);

/**
 * Makes the page language available to `useT()` and `useLanguage()`. Pure render, no effects, so
 * the server HTML and the hydrated browser tree are identical.
 */
export function I18nProvider({
  language,
  children,
}: {
  language: string | null | undefined;
  children?: ReactNode;
}) {
  return <LanguageContext value={resolveLanguage(language)}>{children}</LanguageContext>;
}

/** The current page language; es outside a provider. */
export function useLanguage(): Language {
  return useContext(LanguageContext);
}

/** `t(key, vars?)` in the current page language; es outside a provider (never throws). */
export function useT(): Translate {
  const language = useLanguage();
  return useCallback<Translate>((key, vars) => translate(language, key, vars), [language]);
}
