import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Catalog, Catalogs, MessageKey } from './catalog';
import { formatMessage, type MessageVars } from './format';
import { DEFAULT_LANGUAGE, LANGUAGES, resolveLanguage, type Language } from './languages';

export type Translate = (key: MessageKey, vars?: MessageVars) => string;

interface I18nValue {
  language: Language;
  /** The language's texts; another language's while they load; null outside a provider. */
  catalog: Catalog | null;
}

const I18nContext = createContext<I18nValue>({ language: DEFAULT_LANGUAGE, catalog: null });

/**
 * Makes the page language and its texts available to `useT()` and `useLanguage()`. `catalogs` are
 * the catalogues at hand: all of them on the server, the page's own (inlined by the server) in the
 * browser. Rendering is pure, so the server HTML and the hydrated browser tree are identical; a
 * language without its catalogue (the page changed language in the browser) shows the texts at hand
 * until its catalogue has loaded.
 */
export function I18nProvider({
  language,
  catalogs,
  children,
}: {
  language: string | null | undefined;
  catalogs: Catalogs;
  children?: ReactNode;
}) {
  const resolved = resolveLanguage(language);
  const [loaded, setLoaded] = useState<Catalogs | null>(null);
  const missing = catalogs[resolved] === undefined && loaded?.[resolved] === undefined;
  useEffect(() => {
    if (!missing) return;
    let gone = false;
    import('./catalog').then(
      ({ CATALOGS }) => {
        if (!gone) setLoaded(CATALOGS);
      },
      (error: unknown) => {
        console.error('Error loading the texts', error);
      },
    );
    return () => {
      gone = true;
    };
  }, [missing]);
  const catalog = catalogs[resolved] ?? loaded?.[resolved] ?? anyCatalog(catalogs);
  const value = useMemo(() => ({ language: resolved, catalog }), [resolved, catalog]);
  return <I18nContext value={value}>{children}</I18nContext>;
}

function anyCatalog(catalogs: Catalogs): Catalog | null {
  for (const language of LANGUAGES) {
    const catalog = catalogs[language];
    if (catalog) return catalog;
  }
  return null;
}

/** The current page language; es outside a provider. */
export function useLanguage(): Language {
  return useContext(I18nContext).language;
}

/** `t(key, vars?)` in the current page language; outside a provider, the key itself (never throws). */
export function useT(): Translate {
  const { catalog } = useContext(I18nContext);
  return useCallback<Translate>((key, vars) => formatMessage(catalog, key, vars), [catalog]);
}
