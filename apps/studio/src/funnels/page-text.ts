import type { ButtonTime, Page } from '@embudo/contracts';

/** The text of a page's rich-text headline, without its markup (parsed inertly: nothing runs). */
export function plainText(html: string): string {
  if (html === '') return '';
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent;
  return text.replace(/\s+/g, ' ').trim();
}

/** A page's name in lists: its headline's text, else "Page n without a headline". */
export function pageTitle(page: Pick<Page, 'headline'>, untitled: string): string {
  return plainText(page.headline) || untitled;
}

/** 0:45, 12:05 or 1:02:03. */
export function formatButtonTime({ hours, minutes, seconds }: ButtonTime): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/** The ids in their new order after moving one from `from` to `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}
