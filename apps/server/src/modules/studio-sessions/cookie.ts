/**
 * The Studio's session cookie (decision 21). Written by hand rather than with @fastify/cookie, whose
 * current release needs Node 22: one cookie read, one written.
 */
export const SESSION_COOKIE = 'embudo_session';

/** The value of one cookie of a Cookie header, or undefined. The first of several of one name wins. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() !== name) continue;
    let value = part.slice(at + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return value;
  }
  return undefined;
}

export interface CookieOptions {
  /** Seconds until the browser forgets it; 0 forgets it now. */
  maxAgeSeconds: number;
  secure: boolean;
}

/** A Set-Cookie value: HttpOnly, SameSite=Lax, Path=/, and Secure when the Studio is served over https. */
export function sessionCookie(value: string, { maxAgeSeconds, secure }: CookieOptions): string {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw new Error('a session token is URL-safe base64');
  return [
    `${SESSION_COOKIE}=${value}`,
    `Max-Age=${String(Math.max(0, Math.floor(maxAgeSeconds)))}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
