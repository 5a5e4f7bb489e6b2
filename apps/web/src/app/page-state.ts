import type { SiteContext, SiteResponse } from '@embudo/contracts';
import type { Catalogs } from '../i18n/catalog';
import type { Language } from '../i18n/languages';

export const PAGE_STATE_ID = 'embudo-data';

export interface PageState {
  context: SiteContext;
  site: SiteResponse | null;
  /** The server's base domains, so the browser reads its own address with the same function. */
  baseDomains: string[];
  /**
   * The page's catalogue of texts, so that the browser bundle carries none (another language loads
   * on demand). Absent from pages served before it existed.
   */
  catalogs?: Catalogs;
  /**
   * The visitor's language (from the request's Accept-Language), for views no funnel's language
   * applies to. Absent from pages served before it existed (es then).
   */
  visitorLanguage?: Language;
  /**
   * The operator's contact address for the legal texts, when the page has no account's own (a legal
   * page of an unknown link). Absent from pages served before it existed.
   */
  providerEmail?: string | null;
}

/** JSON inside a <script> must not be able to close it. */
export function serialisePageState(state: PageState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The data the server rendered the page with; null when the page carries none. */
export function readPageState(doc: Document): PageState | null {
  const text = doc.getElementById(PAGE_STATE_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as PageState;
  } catch {
    return null;
  }
}
