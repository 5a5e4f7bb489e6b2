import { describe, expect, it } from 'vitest';
import { readCookie, sessionCookie } from './cookie';

describe('the session cookie', () => {
  it('reads one cookie among others, trimmed, and nothing from an absent or unrelated header', () => {
    expect(readCookie('a=1; embudo_session=tok_en-9; b=2', 'embudo_session')).toBe('tok_en-9');
    expect(readCookie('embudo_session="quoted"', 'embudo_session')).toBe('quoted');
    expect(readCookie('xembudo_session=1; embudo_sessionx=2', 'embudo_session')).toBeUndefined();
    expect(readCookie(undefined, 'embudo_session')).toBeUndefined();
    expect(readCookie('garbage;;=;', 'embudo_session')).toBeUndefined();
    expect(readCookie('embudo_session=first; embudo_session=second', 'embudo_session')).toBe('first');
  });

  it('is HttpOnly, SameSite=Lax, Path=/, and Secure only when asked', () => {
    expect(sessionCookie('abc', { maxAgeSeconds: 60, secure: false })).toBe(
      'embudo_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Lax',
    );
    expect(sessionCookie('', { maxAgeSeconds: 0, secure: true })).toBe(
      'embudo_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure',
    );
    expect(() => sessionCookie('a;b', { maxAgeSeconds: 1, secure: false })).toThrow();
  });
});
