/** A button link without a scheme is given https:// (visitor-behaviour §5). */
export function withScheme(url: string): string {
  const trimmed = url.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
  return `https://${trimmed.replace(/^\/+/, '')}`;
}

/** An ISO date-time with the visitor's own offset, as action timestamps carry it (visitor-behaviour §3). */
export function isoWithOffset(date: Date): string {
  const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, '0');
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}` +
    `${sign}${pad(offset / 60)}:${pad(offset % 60)}`
  );
}

/** The current address with another preview token (visitor-behaviour §4.7: preview moves to the next page). */
export function withPreviewToken(href: string, token: string): string {
  const url = new URL(href);
  url.searchParams.set('previewToken', token);
  return url.toString();
}
