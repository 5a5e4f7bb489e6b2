import type { Page } from '@embudo/contracts';
import { useCallback } from 'react';
import { useLanguage } from '../i18n/i18n';

/** Counts and shares as the owner reads them, in the Studio's language; a share with no base is "—". */
export function useNumbers() {
  const { language } = useLanguage();
  const count = useCallback((n: number) => new Intl.NumberFormat(language).format(n), [language]);
  const share = useCallback(
    (n: number | null) =>
      n === null
        ? '—'
        : new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(n),
    [language],
  );
  /** A calendar day (`YYYY-MM-DD`, already in the account's time zone) as "3 Nov 2026". */
  const day = useCallback(
    (date: string, withYear = true) =>
      new Intl.DateTimeFormat(language, {
        day: 'numeric',
        month: 'short',
        ...(withYear ? { year: 'numeric' } : {}),
        timeZone: 'UTC',
      }).format(new Date(`${date}T00:00:00Z`)),
    [language],
  );
  return { count, share, day };
}

/** The text of a page's rich-text headline, without its markup (parsed inertly: nothing runs). */
function plainText(html: string): string {
  if (html === '') return '';
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent;
  return text.replace(/\s+/g, ' ').trim();
}

/** A page's headline as text, or null when it has none. */
export function headlineOf(page: Pick<Page, 'headline'> | undefined): string | null {
  if (!page) return null;
  return plainText(page.headline) || null;
}
